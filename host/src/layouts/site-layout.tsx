import { Outlet } from 'react-router-dom';
import { useChatVisibility } from '../third-party/chat/use-chat-visibility';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** The site's frame: the header, the page, and the footer unless the layout leaves it out. */
function SiteLayout({ name, footer }: { name: 'default' | 'no-footer'; footer: boolean }) {
  useChatVisibility(true);
  return (
    <div className="p-layout" data-layout={name}>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="p-main">
        <Outlet />
      </main>
      {footer && <SiteFooter />}
    </div>
  );
}

export function DefaultLayout() {
  return <SiteLayout name="default" footer />;
}

/** For pages with nothing below them (the gift page). */
export function NoFooterLayout() {
  return <SiteLayout name="no-footer" footer={false} />;
}
