/**
 * Whether this browser has gifts, as the API last said, in localStorage: the host's header links to
 * them without asking on each first load.
 */
import { createListeners } from '../listeners';

const STORAGE_KEY = 'gift-box:has-gifts';

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
