/** The payload's links are plain markup: a same-origin click becomes a router navigation. */
import { useCallback, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

function isPlainLeftClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export function useInternalLinkClick(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  const location = useLocation();

  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || !isPlainLeftClick(event) || !(event.target instanceof Element)) return;
      const anchor = event.target.closest('a');
      if (!anchor || !event.currentTarget.contains(anchor) || !anchor.href) return;
      // New tabs and downloads are the visitor's explicit choice.
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      // The browser scrolls to a fragment better than the router.
      if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
      event.preventDefault();
      void navigate(url.pathname + url.search + url.hash);
    },
    [navigate, location.pathname, location.search],
  );
}
