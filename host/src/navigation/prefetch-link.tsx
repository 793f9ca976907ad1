/**
 * A navigation link that fetches its route's remote ahead of the click: the remote's manifest and
 * entry when the link is visible (on idle, once the route's own page is on screen: nothing
 * speculative competes with it). Pointing at it, focusing or pressing it fetches the page itself,
 * as for every link (link-intent.tsx).
 */
import { useEffect, useMemo, useRef } from 'react';
import { NavLink, type NavLinkProps } from 'react-router-dom';
import { useAppServices } from '../app-services';
import { useFirstContent } from './first-content';

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void) => number };

function whenIdle(callback: () => void): void {
  const idle = (window as IdleWindow).requestIdleCallback;
  if (idle) idle(callback);
  else window.setTimeout(callback, 200);
}

export function PrefetchLink({ to, ...props }: NavLinkProps & { to: string }) {
  const { routes, remotes } = useAppServices();
  const firstContent = useFirstContent();
  const ref = useRef<HTMLAnchorElement>(null);
  const route = useMemo(() => routes.matchRoute(to)?.route, [routes, to]);

  useEffect(() => {
    const element = ref.current;
    if (!route || !element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      whenIdle(() => remotes.prefetch(route.remote));
    });
    let stopped = false;
    // Watched from then on: the page may have pushed the link out of view.
    void firstContent.then(() => {
      if (!stopped) observer.observe(element);
    });
    return () => {
      stopped = true;
      observer.disconnect();
    };
  }, [firstContent, remotes, route]);

  return <NavLink ref={ref} to={to} {...props} />;
}
