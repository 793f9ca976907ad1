/**
 * Whether this browser has gifts, as its last answer from `GET /api/visitor/gifts` said: the
 * host's header links to them from every page without asking the API on each first load. Kept
 * in localStorage, so it survives the tab; the list itself is always the API's.
 */
import { createListeners } from '../listeners';

const STORAGE_KEY = 'gift-box:has-gifts';

/** Where the game page lists them: the header's link, the list's id. */
export const YOUR_GIFTS_ANCHOR = 'your-gifts';
export const YOUR_GIFTS_PATH = `/game#${YOUR_GIFTS_ANCHOR}`;
const listeners = createListeners();

export function hasVisitorGifts(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'yes';
  } catch {
    return false;
  }
}

export function rememberVisitorGifts(count: number): void {
  if (hasVisitorGifts() === count > 0) return;
  try {
    if (count > 0) localStorage.setItem(STORAGE_KEY, 'yes');
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable: the header then links to nothing, the game page still lists them.
  }
  listeners.notify();
}

/** For `useSyncExternalStore`: this tab's changes, and another tab's through the storage event. */
export function subscribeVisitorGifts(listener: () => void): () => void {
  const unsubscribe = listeners.subscribe(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}
