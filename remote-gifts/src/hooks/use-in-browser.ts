/** False while prerendering: one visitor's things never go into the prerendered HTML. */
import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

export function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
