import { PrefetchLink } from '../navigation/prefetch-link';
import { CookieSettingsButton } from '../third-party/analytics/cookie-settings-button';
import { ChatButton } from './chat-button';

export function SiteFooter() {
  return (
    <footer className="p-footer">
      <nav aria-label="Legal" className="p-footer__nav">
        <PrefetchLink to="/about">About</PrefetchLink>
        <PrefetchLink to="/privacy-policy">Privacy policy</PrefetchLink>
        <PrefetchLink to="/terms">Terms</PrefetchLink>
      </nav>
      {/* The visitor's controls for the optional third parties. */}
      <div className="p-footer__actions">
        <ChatButton />
        <CookieSettingsButton />
      </div>
      <p className="p-footer__note">© {new Date().getFullYear()} Gift Box. A promotional gift game.</p>
    </footer>
  );
}
