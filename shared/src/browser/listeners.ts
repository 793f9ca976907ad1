/** The listener list behind every small store here, for `useSyncExternalStore`. */
export interface Listeners {
  subscribe(listener: () => void): () => void;
  /** One that unsubscribes meanwhile is still called this time. */
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
