import { Outlet } from 'react-router-dom';
import { useChatVisibility } from '../third-party/chat/use-chat-visibility';
import { SiteHeader } from './site-header';

export function NoFooterLayout() {
  useChatVisibility(true);
  return (
    <div className="p-layout" data-layout="no-footer">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="p-main">
        <Outlet />
      </main>
    </div>
  );
}
