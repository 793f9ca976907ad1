import { Outlet } from 'react-router-dom';
import { useChatVisibility } from '../third-party/chat/use-chat-visibility';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export function DefaultLayout() {
  useChatVisibility(true);
  return (
    <div className="p-layout" data-layout="default">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="p-main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
