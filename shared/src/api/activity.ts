/**
 * Counts the API requests in flight so the host's progress bar covers waits for the service as
 * well as page loads, whichever remote made the request.
 */
export interface RequestActivity {
  /** Marks a request as started; call the returned function once when it settles (twice is harmless). */
  begin(): () => void;
  /** The number of requests in flight. */
  pending(): number;
  subscribe(listener: () => void): () => void;
}

export function createRequestActivity(): RequestActivity {
  let count = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

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
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
