/**
 * True in the visitor's browser, false while a page is prerendered at build time: what belongs to
 * one visitor (their gifts) is never in the prerendered HTML, and asks for nothing there.
 */
import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

export function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
