/** API requests in flight, so the host's progress bar covers them whichever remote asked. */
import { createListeners } from '../listeners';

export interface RequestActivity {
  /** Twice is harmless. */
  begin(): () => void;
  pending(): number;
  subscribe(listener: () => void): () => void;
}

export function createRequestActivity(): RequestActivity {
  let count = 0;
  const { subscribe, notify } = createListeners();

  return {
    begin() {
      count += 1;
      notify();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        count -= 1;
        notify();
      };
    },
    pending: () => count,
    subscribe,
  };
}
