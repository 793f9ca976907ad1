/**
 * The consent question: small, at the bottom of the window, never in the way. It does not take
 * focus when it appears on its own; asked for again from "Cookie settings", it does, and gives
 * it back afterwards.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { useChatOutOfTheWay } from '../chat/use-chat-visibility';
import { useThirdParties } from '../third-parties-context';
import { bannerOpen, type ConsentChoice } from './consent-store';
import { useConsent } from './use-consent';
import './consent-banner.css';

/**
 * The banner sticks to the bottom of the window: a control the visitor tabs to must scroll into
 * view above it, not stay hidden behind it.
 */
function useKeepFocusAboveBanner(region: RefObject<HTMLElement | null> | undefined): void {
  useEffect(() => {
    const element = region?.current;
    if (!element) return;
    const root = document.documentElement;
    const reserve = () => {
      root.style.scrollPaddingBottom = `${Math.ceil(element.getBoundingClientRect().height) + 16}px`;
    };
    reserve();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(reserve) : undefined;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.scrollPaddingBottom = '';
    };
  }, [region]);
}

export function ConsentBanner() {
  const { consent: store } = useThirdParties();
  const state = useConsent(store);
  const open = bannerOpen(state);
  const region = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  // On a phone the chat bubble would sit on Decline.
  useChatOutOfTheWay(open);
  useKeepFocusAboveBanner(open ? region : undefined);

  useEffect(() => {
    if (!open || state.reopened === 0) return;
    if (document.activeElement instanceof HTMLElement && !region.current?.contains(document.activeElement)) {
      returnTo.current = document.activeElement;
    }
    region.current?.focus();
  }, [open, state.reopened]);

  if (!open) return null;

  const current = state.reopened > 0 ? state.choice : undefined;

  /** Answers (or, reopened, closes without a new answer), then puts focus back. */
  const finish = (choice: ConsentChoice | undefined) => {
    const back = returnTo.current;
    returnTo.current = null;
    const hadFocus = region.current?.contains(document.activeElement) ?? false;
    if (choice) store.choose(choice);
    else store.close();
    // The banner is gone: focus goes back where the visitor came from, or to the page.
    if (!hadFocus) return;
    if (back?.isConnected) back.focus();
    else document.getElementById('main')?.focus({ preventScroll: true });
  };

  return (
    <section
      ref={region}
      className="p-consent"
      aria-labelledby="p-consent-title"
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && current) finish(undefined);
      }}
    >
      <h2 id="p-consent-title" className="p-consent__title">
        Cookies and analytics
      </h2>
      <p className="p-consent__text">
        May we use analytics cookies to learn how the site is used? They are only set once you accept, and analytics
        never receive your email address, voucher code or gift links. See the{' '}
        <Link to="/privacy-policy">privacy policy</Link>.
      </p>
      {current && (
        <p className="p-consent__current">
          You have {current === 'granted' ? 'accepted' : 'declined'} analytics cookies.
        </p>
      )}
      <div className="p-consent__actions">
        {/* Declining is as easy as accepting: same size, same weight. */}
        <button type="button" className="p-button p-consent__button" onClick={() => finish('granted')}>
          Accept
        </button>
        <button type="button" className="p-button p-consent__button" onClick={() => finish('denied')}>
          Decline
        </button>
        {current && (
          <button type="button" className="p-button p-consent__button" onClick={() => finish(undefined)}>
            Keep my choice
          </button>
        )}
      </div>
    </section>
  );
}
