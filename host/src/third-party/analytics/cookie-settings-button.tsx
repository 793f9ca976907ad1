/** The footer's way back to the consent banner; only there when something asks for consent. */
import { consentStore, type ConsentStore } from './consent-store';
import { useConsent } from './use-consent';
import './consent-banner.css';

export function CookieSettingsButton({ store = consentStore }: { store?: ConsentStore }) {
  const { relevant } = useConsent(store);
  if (!relevant) return null;
  return (
    <button type="button" className="p-footer__link-button" onClick={() => store.reopen()}>
      Cookie settings
    </button>
  );
}
