import { useSyncExternalStore } from 'react';
import { Link } from 'react-router-dom';
import { hasVisitorGifts, subscribeVisitorGifts, YOUR_GIFTS_PATH } from 'shared/browser/api/visitor-gifts-hint';
import { PrefetchLink } from '../navigation/prefetch-link';

const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/game', label: 'Play' },
  { to: '/about', label: 'About' },
  { to: '/privacy-policy', label: 'Privacy' },
  { to: '/terms', label: 'Terms' },
] as const;

export function SkipLink() {
  return (
    <a className="p-skip-link" href="#main">
      Skip to content
    </a>
  );
}

function GiftMark() {
  return (
    <svg className="p-brand__mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
      <rect x="4" y="12" width="24" height="17" rx="3" fill="var(--p-color-primary)" />
      <rect x="2" y="7" width="28" height="7" rx="2" fill="var(--p-color-primary)" opacity="0.85" />
      <rect x="14" y="7" width="4" height="22" fill="var(--p-color-accent)" />
    </svg>
  );
}

export function Brand() {
  return (
    <Link to="/" className="p-brand" aria-label="Gift Box, home">
      <GiftMark />
      Gift Box
    </Link>
  );
}

/**
 * Shown once this browser has won or redeemed a gift; prerendered pages never have it. A plain
 * link: the Play link already fetches the game ahead, and this one is never the current page.
 */
function YourGiftsLink() {
  const hasGifts = useSyncExternalStore(subscribeVisitorGifts, hasVisitorGifts, () => false);
  if (!hasGifts) return null;
  return (
    <Link to={YOUR_GIFTS_PATH} className="p-header__gifts">
      Your gifts
    </Link>
  );
}

/** The site header: brand, the visitor's gifts when there are some, and links to every content page and the game. */
export function SiteHeader() {
  return (
    <header className="p-header">
      <SkipLink />
      <Brand />
      <YourGiftsLink />
      <nav aria-label="Main" className="p-nav">
        {NAV_LINKS.map((link) => (
          <PrefetchLink key={link.to} to={link.to} end className="p-nav__link">
            {link.label}
          </PrefetchLink>
        ))}
      </nav>
    </header>
  );
}
