/**
 * Counts the API requests in flight so the host's progress bar covers waits for the service as
 * well as page loads, whichever remote made the request.
 */
import { createListeners } from '../listeners';

export interface RequestActivity {
  /** Marks a request as started; call the returned function once when it settles (twice is harmless). */
  begin(): () => void;
  /** The number of requests in flight. */
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
