import { Link } from 'react-router-dom';
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

export function Brand() {
  return (
    <Link to="/" className="p-brand" aria-label="Gift Box, home">
      <span aria-hidden="true" className="p-brand__mark">
        🎁
      </span>
      Gift Box
    </Link>
  );
}

/** The site header: brand and links to every content page and the game. */
export function SiteHeader() {
  return (
    <header className="p-header">
      <SkipLink />
      <Brand />
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
