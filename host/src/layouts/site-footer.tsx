import { PrefetchLink } from '../navigation/prefetch-link';

export function SiteFooter() {
  return (
    <footer className="p-footer">
      <nav aria-label="Legal" className="p-footer__nav">
        <PrefetchLink to="/about">About</PrefetchLink>
        <PrefetchLink to="/privacy-policy">Privacy policy</PrefetchLink>
        <PrefetchLink to="/terms">Terms</PrefetchLink>
      </nav>
      <p className="p-footer__note">© {new Date().getFullYear()} Gift Box. A promotional gift game.</p>
    </footer>
  );
}
