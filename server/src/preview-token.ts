/**
 * The signed override with which a deploying team opens the production site with one remote
 * pinned to a build not yet current, for one browser (the gate before promotion): the value of
 * the preview cookie (shared/deployment.ts, `previewCookieName`),
 *
 *     v2~<remote>~<build id>~<expires: seconds since the epoch>~<audience>~<signature>
 *
 * where the audience is the host's origin the token is for (`https://giftbox.example`) and the
 * signature is HMAC-SHA256 of everything before the last `~`, under one of that remote's preview
 * keys (secrets the remote's team and the host's operator share: REMOTE_<NAME>_PREVIEW_KEY on the
 * host's server, the current key and, while it is rotated, the next), base64url. `~` is in no
 * build id, remote name or origin. The host's server honours a token only when its signature
 * verifies under one of the named remote's own keys, in constant time, it names the host the
 * page is served from (its scheme and hostname), and it has not expired and lives at most an hour: a visitor cannot pin
 * themselves, one team's key pins no other team's remote, and a token seen once (on a staging
 * host, in a log) is soon worthless and worthless elsewhere.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isBuildId } from 'shared/deployment';

const VERSION = 'v2';
const SEPARATOR = '~';
/** A preview key shorter than this is refused where it is configured: it could be guessed. */
export const MIN_PREVIEW_KEY_LENGTH = 32;
/** The longest a token may live: a gate run takes minutes. */
export const MAX_PREVIEW_TTL_S = 60 * 60;

export interface PreviewPin {
  remote: string;
  buildId: string;
  /** Seconds since the epoch. */
  expires: number;
  /** The origin of the host the token is for, such as `https://giftbox.example`. */
  audience: string;
}

function signature(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** `value` as an http(s) origin, or undefined. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether two origins name the same host: the same scheme and hostname. The port is left out: the
 * proxy in front of the host's server tells it the hostname it was asked for, not the port.
 */
function sameHost(a: string, b: string): boolean {
  try {
    const [left, right] = [new URL(a), new URL(b)];
    return left.protocol === right.protocol && left.hostname === right.hostname;
  } catch {
    return false;
  }
}

/** The cookie value that pins `remote` to `buildId` on `audience` until `expires` (s since the epoch). */
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

/** Whether `given` is the signature of `payload` under one of `keys`, each compared in constant time. */
function signedByOneOf(keys: readonly string[], payload: string, given: string): boolean {
  const actual = Buffer.from(given);
  return keys
    .map((key) => Buffer.from(signature(key, payload)))
    .some((expected) => expected.length === actual.length && timingSafeEqual(expected, actual));
}

export type PreviewCheck = { pin: PreviewPin } | { pin?: undefined; reason: string };

/**
 * The pin a token carries, when it is well formed, signed with one of the keys of the remote it
 * names (`keys`, by remote), for `audience` (the origin the page is served from), and not expired
 * at `nowS` (seconds since the epoch); otherwise undefined, and `reason` says why (for the
 * server's log, never the visitor).
 */
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
