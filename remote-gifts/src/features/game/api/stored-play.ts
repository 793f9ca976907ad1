/**
 * The play this tab is on, kept in sessionStorage until the visitor starts over: its box and its
 * idempotency key. Sent again after a reload (or on Back to the game), the play gets its first
 * answer from the API and spends nothing more, so a win in flight is never lost.
 */
import { IDEMPOTENCY_KEY_PATTERN } from 'shared/api/contract-values';

const STORAGE_KEY = 'gift-box:play';

export interface StoredPlay {
  box: number;
  key: string;
  /** When it was picked (ms since the epoch). */
  at: number;
}

/**
 * How long a stored play is asked again: well within the two days the API keeps a key's answer,
 * so asking again can never become a new play.
 */
export const RESUME_FOR_MS = 12 * 60 * 60 * 1000;

/** 128 random bits, URL-safe. getRandomValues works on plain http too, unlike randomUUID. */
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

// Storage may be unavailable (privacy settings) or full: the play goes on without it.
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
