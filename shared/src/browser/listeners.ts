/**
 * The listener list behind every small store here (request activity, chat, icons): subscribe
 * for `useSyncExternalStore`, notify on each change.
 */
export interface Listeners {
  /** Adds a listener; the returned function removes it again. */
  subscribe(listener: () => void): () => void;
  /** Calls every listener; one that unsubscribes meanwhile is still called this time. */
  notify(): void;
}

export function createListeners(): Listeners {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify() {
      for (const listener of [...listeners]) listener();
    },
  };
}
