/**
 * The preview cookie's value, which pins one remote to a build for one browser (the gate before
 * promotion): `v2~<remote>~<build id>~<expires s>~<audience origin>~<base64url HMAC-SHA256 of
 * the rest under one of the remote's REMOTE_<NAME>_PREVIEW_KEY keys>`. Honoured only for that
 * remote's keys, that host and at most an hour (docs/decisions/0030-progressive-delivery.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isBuildId } from 'shared/deployment';

const VERSION = 'v2';
const SEPARATOR = '~';
/** A preview key shorter than this is refused where it is configured: it could be guessed. */
export const MIN_PREVIEW_KEY_LENGTH = 32;
/** A gate run takes minutes. */
export const MAX_PREVIEW_TTL_S = 60 * 60;

export interface PreviewPin {
  remote: string;
  buildId: string;
  expires: number;
  audience: string;
}

function signature(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Scheme and hostname: the proxy in front tells the host's server the hostname asked for, not the port. */
function sameHost(a: string, b: string): boolean {
  try {
    const [left, right] = [new URL(a), new URL(b)];
    return left.protocol === right.protocol && left.hostname === right.hostname;
  } catch {
    return false;
  }
}

export function signPreview(key: string, pin: PreviewPin): string {
  if (key.length < MIN_PREVIEW_KEY_LENGTH)
    throw new Error(`a preview key must be at least ${MIN_PREVIEW_KEY_LENGTH} characters`);
  if (!/^[a-z][a-z0-9-]*$/.test(pin.remote)) throw new Error(`"${pin.remote}" is not a remote's name`);
  if (!isBuildId(pin.buildId)) throw new Error(`"${pin.buildId}" is not a build id`);
  if (!Number.isInteger(pin.expires)) throw new Error('expires must be whole seconds since the epoch');
  if (!originOf(pin.audience)) throw new Error(`"${pin.audience}" is not an origin (https://host[:port])`);
  const payload = [VERSION, pin.remote, pin.buildId, String(pin.expires), pin.audience].join(SEPARATOR);
  return `${payload}${SEPARATOR}${signature(key, payload)}`;
}

/** Each key compared in constant time. */
function signedByOneOf(keys: readonly string[], payload: string, given: string): boolean {
  const actual = Buffer.from(given);
  return keys
    .map((key) => Buffer.from(signature(key, payload)))
    .some((expected) => expected.length === actual.length && timingSafeEqual(expected, actual));
}

export type PreviewCheck = { pin: PreviewPin } | { pin?: undefined; reason: string };

/** The pin a valid token carries; otherwise undefined, and `reason` says why (for the log, never the visitor). */
export function verifyPreview(
  token: string | undefined,
  keys: Readonly<Record<string, readonly string[] | undefined>>,
  nowS: number,
  audience: string,
): PreviewCheck {
  if (!token) return { reason: 'no token' };
  if (token.length > 512) return { reason: 'the token is too long' };
  const parts = token.split(SEPARATOR);
  if (parts.length !== 6 || parts[0] !== VERSION) return { reason: `the token is not a ${VERSION} preview token` };
  const [, remote, buildId, expiresText, tokenAudience, given] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const remoteKeys = Object.hasOwn(keys, remote) ? keys[remote] : undefined;
  if (!remoteKeys?.length) return { reason: `no preview key is configured for the ${remote} remote` };
  if (!isBuildId(buildId) || !/^\d{1,12}$/.test(expiresText)) return { reason: 'the token is malformed' };
  if (!signedByOneOf(remoteKeys, parts.slice(0, 5).join(SEPARATOR), given))
    return { reason: 'the signature does not verify' };
  if (!sameHost(tokenAudience, audience)) return { reason: 'the token is for another host' };
  const expires = Number(expiresText);
  if (expires <= nowS) return { reason: 'the token has expired' };
  if (expires > nowS + MAX_PREVIEW_TTL_S) return { reason: 'the token lives longer than a preview may' };
  return { pin: { remote, buildId, expires, audience } };
}
