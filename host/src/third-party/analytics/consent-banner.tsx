/**
 * The consent question: small, at the bottom of the window, never in the way. It does not take
 * focus when it appears on its own; asked for again from "Cookie settings", it does, and gives
 * it back afterwards.
 */
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { bannerOpen, consentStore, type ConsentChoice, type ConsentStore } from './consent-store';
import { useConsent } from './use-consent';
import './consent-banner.css';

export function ConsentBanner({ store = consentStore }: { store?: ConsentStore }) {
  const state = useConsent(store);
  const open = bannerOpen(state);
  const region = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!open || state.reopened === 0) return;
    if (document.activeElement instanceof HTMLElement && !region.current?.contains(document.activeElement)) {
      returnTo.current = document.activeElement;
    }
    region.current?.focus();
  }, [open, state.reopened]);

  if (!open) return null;

  const choose = (choice: ConsentChoice) => {
    const back = returnTo.current;
    returnTo.current = null;
    const hadFocus = region.current?.contains(document.activeElement) ?? false;
    store.choose(choice);
    // The banner is gone: focus goes back where the visitor came from, or to the page.
    if (!hadFocus) return;
    if (back?.isConnected) back.focus();
    else document.getElementById('main')?.focus({ preventScroll: true });
  };

  return (
    <section ref={region} className="p-consent" aria-labelledby="p-consent-title" tabIndex={-1}>
      <h2 id="p-consent-title" className="p-consent__title">
        Cookies and analytics
      </h2>
      <p className="p-consent__text">
        May we use analytics cookies to learn how the site is used? They are only set once you accept, and we never share
        your email address, voucher code or gift links. See the{' '}
        <Link to="/privacy-policy">privacy policy</Link>.
      </p>
      <div className="p-consent__actions">
        {/* Declining is as easy as accepting: same size, same weight. */}
        <button type="button" className="p-button p-consent__button" onClick={() => choose('granted')}>
          Accept
        </button>
        <button type="button" className="p-button p-consent__button" onClick={() => choose('denied')}>
          Decline
        </button>
      </div>
    </section>
  );
}
