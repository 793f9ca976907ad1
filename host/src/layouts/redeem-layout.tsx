import { Outlet } from 'react-router-dom';
import { useChatVisibility } from '../third-party/chat/use-chat-visibility';
import { Brand, SkipLink } from './site-header';

/** Checkout-like: the brand, the task, nothing else to wander off to (the chat bubble included). */
export function RedeemLayout() {
  useChatVisibility(false);
  return (
    <div className="p-layout p-layout--redeem" data-layout="redeem">
      <header className="p-header p-header--minimal">
        <SkipLink />
        <Brand />
        <span className="p-header__badge">Secure redemption</span>
      </header>
      <main id="main" tabIndex={-1} className="p-main p-main--focused">
        <Outlet />
      </main>
    </div>
  );
}
