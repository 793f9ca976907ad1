/** The visitor's analytics consent, shared by every tab; failing storage means asking again next visit. */
export type ConsentChoice = 'granted' | 'denied';

export interface ConsentState {
  /** Undefined until the visitor answers. */
  choice: ConsentChoice | undefined;
  relevant: boolean;
  /** "Cookie settings" presses since the last choice. */
  reopened: number;
}

export interface ConsentStore {
  getState(): ConsentState;
  subscribe(listener: () => void): () => void;
  choose(choice: ConsentChoice): void;
  markRelevant(): void;
  reopen(): void;
  close(): void;
}

export const CONSENT_STORAGE_KEY = 'p-consent';

interface StoredConsent {
  choice: ConsentChoice;
  at: string;
}

export interface ConsentDeps {
  storage: () => Storage;
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now: () => Date;
}

function browserDeps(): ConsentDeps {
  return { storage: () => window.localStorage, events: window, now: () => new Date() };
}

/**
 * A choice is asked again after this long: as long as Mixpanel's cookie lives, and about the
 * time European regulators expect consent to be renewed.
 */
export const CONSENT_LIFETIME_DAYS = 365;
const CONSENT_LIFETIME_MS = CONSENT_LIFETIME_DAYS * 24 * 60 * 60 * 1000;

export function parseStoredConsent(raw: string | null, now: Date = new Date()): ConsentChoice | undefined {
  if (!raw) return undefined;
  try {
    const stored = JSON.parse(raw) as Partial<StoredConsent> | null;
    if (stored?.choice !== 'granted' && stored?.choice !== 'denied') return undefined;
    const madeAt = typeof stored.at === 'string' ? Date.parse(stored.at) : Number.NaN;
    const age = now.getTime() - madeAt;
    return Number.isFinite(age) && age < CONSENT_LIFETIME_MS ? stored.choice : undefined;
  } catch {
    return undefined;
  }
}

export function createConsentStore(deps: ConsentDeps = browserDeps()): ConsentStore {
  const read = (): ConsentChoice | undefined => {
    try {
      return parseStoredConsent(deps.storage().getItem(CONSENT_STORAGE_KEY), deps.now());
    } catch (error) {
      console.warn('[consent] the stored choice cannot be read', error);
      return undefined;
    }
  };

  let state: ConsentState = { choice: read(), relevant: false, reopened: 0 };
  const listeners = new Set<() => void>();

  const update = (next: Partial<ConsentState>) => {
    state = { ...state, ...next };
    for (const listener of [...listeners]) listener();
  };

  // Another tab chose (or cleared its storage): follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== CONSENT_STORAGE_KEY && event.key !== null) return;
    const choice = read();
    if (choice !== state.choice) update({ choice, reopened: 0 });
  };

  return {
    getState: () => state,
    subscribe(listener) {
      if (listeners.size === 0) deps.events.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) deps.events.removeEventListener('storage', onStorage);
      };
    },
    choose(choice) {
      const stored: StoredConsent = { choice, at: deps.now().toISOString() };
      try {
        deps.storage().setItem(CONSENT_STORAGE_KEY, JSON.stringify(stored));
      } catch (error) {
        console.warn('[consent] the choice cannot be stored; it holds for this page only', error);
      }
      update({ choice, reopened: 0 });
    },
    markRelevant() {
      if (!state.relevant) update({ relevant: true });
    },
    reopen() {
      update({ reopened: state.reopened + 1 });
    },
    close() {
      if (state.reopened > 0 && state.choice !== undefined) update({ reopened: 0 });
    },
  };
}

export function bannerOpen(state: ConsentState): boolean {
  return state.relevant && (state.choice === undefined || state.reopened > 0);
}
