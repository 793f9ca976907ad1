/**
 * One-way hashes for values the API needs to compare but must not keep or log: visitor ids and
 * client addresses. The same value always gives the same hash, so counters, sessions and log
 * lines can be matched up without storing the value itself.
 *
 * Client addresses (and the abuse-limit counters' subjects) are hashed with a key, an HMAC, so a
 * stored or logged hash cannot be reversed by hashing every IPv4 address (there are only 2^32).
 * The key is the server's (IP_HASH_SECRET, or one derived from the visitor cookie's secret), set
 * once at start by `buildApp`; every API process of a deployment must use the same key, so that
 * they count the same address in the same bucket.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** 32 characters of URL-safe base64 (192 bits). */
const HASH_CHARS = 32;

/** Until `setHashKey` is called (a unit test without an app): a key of this process's own. */
let key: Buffer = randomBytes(32);

/** Sets the key of `hashValue`: the server's secret, read from its configuration at start. */
export function setHashKey(secret: Buffer): void {
  key = secret;
}

/** The key `hashValue` uses now: a cache of its hashes is good only while this is the same. */
export function hashKey(): Buffer {
  return key;
}

/** HMAC-SHA256 under the server's key, URL-safe base64, 32 characters: for addresses and counters. */
export function hashValue(value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url').slice(0, HASH_CHARS);
}

/**
 * SHA-256 without a key, URL-safe base64, 32 characters: for a random id that cannot be guessed
 * anyway (a visitor id), whose stored hash must outlive a change of the server's keys.
 */
export function unkeyedHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, HASH_CHARS);
}
