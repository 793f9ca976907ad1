/** Addresses are hashed keyed: all IPv4 hashes are cheap to compute. */
import { createHash, createHmac, randomBytes } from 'node:crypto';

const HASH_CHARS = 32;

let key: Buffer = randomBytes(32);

export function setHashKey(secret: Buffer): void {
  key = secret;
}

export function hashKey(): Buffer {
  return key;
}

export function hashValue(value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url').slice(0, HASH_CHARS);
}

/** Outlives a key change. */
export function unkeyedHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, HASH_CHARS);
}
