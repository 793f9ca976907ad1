/**
 * One-way hashes for values the API needs to compare but must not keep or log: visitor ids and
 * client addresses. The same value always gives the same hash, so counters, sessions and log
 * lines can be matched up without storing the value itself.
 */
import { createHash } from 'node:crypto';

/** SHA-256, URL-safe base64, 32 characters (192 bits). */
export function hashValue(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}
