/** The footer's way back to the consent banner; only there when something asks for consent. */
import { useThirdParties } from '../third-parties-context';
import { useConsent } from './use-consent';
import './cookie-settings-button.css';

export function CookieSettingsButton() {
  const { consent: store } = useThirdParties();
  const { relevant } = useConsent(store);
  if (!relevant) return null;
  return (
    <button type="button" className="p-footer__link-button" onClick={() => store.reopen()}>
      Cookie settings
    </button>
  );
}
