/** The tab's play, asked again after a reload: its first answer comes back, nothing spent. */
import { IDEMPOTENCY_KEY_PATTERN } from 'shared/api/contract-values';

const STORAGE_KEY = 'gift-box:play';

export interface StoredPlay {
  box: number;
  key: string;
  at: number;
}

/** Within the two days the API keeps a key's answer. */
export const RESUME_FOR_MS = 12 * 60 * 60 * 1000;

export function newPlayKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function isStoredPlay(value: unknown): value is StoredPlay {
  if (typeof value !== 'object' || value === null) return false;
  const { box, key, at } = value as Record<string, unknown>;
  return (
    typeof box === 'number' &&
    Number.isInteger(box) &&
    typeof key === 'string' &&
    IDEMPOTENCY_KEY_PATTERN.test(key) &&
    typeof at === 'number'
  );
}

// Storage may be unavailable or full: the play goes on without it.
export function readStoredPlay(): StoredPlay | undefined {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (!isStoredPlay(value)) return undefined;
    const age = Date.now() - value.at;
    return age >= 0 && age < RESUME_FOR_MS ? value : undefined;
  } catch {
    return undefined;
  }
}

export function storePlay(play: StoredPlay): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(play));
  } catch {
    // Not kept: a reload during this play cannot resume it.
  }
}

export function forgetPlay(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}
