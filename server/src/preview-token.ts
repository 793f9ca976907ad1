/**
 * The signed override with which a deploying team opens the production site with one remote
 * pinned to a build not yet current, for one browser (the gate before promotion): the value of
 * the `gb_preview` cookie (shared/deployment.ts, PREVIEW_COOKIE),
 *
 *     v1~<remote>~<build id>~<expires: seconds since the epoch>~<signature>
 *
 * where the signature is HMAC-SHA256 of everything before the last `~`, under that remote's
 * preview key (a secret the remote's team and the host's operator share: REMOTE_<NAME>_PREVIEW_KEY
 * on the host's server), base64url. `~` is in no build id or remote name. The host's server
 * honours a token only when its signature verifies under the named remote's own key, in constant
 * time, and it has not expired: a visitor cannot pin themselves, and one team's key pins no other
 * team's remote.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isBuildId } from 'shared/deployment';

const VERSION = 'v1';
const SEPARATOR = '~';
/** A preview key shorter than this is refused where it is configured: it could be guessed. */
export const MIN_PREVIEW_KEY_LENGTH = 32;
/** The longest a token may live: a gate run takes minutes, not days. */
export const MAX_PREVIEW_TTL_S = 24 * 60 * 60;

export interface PreviewPin {
  remote: string;
  buildId: string;
  /** Seconds since the epoch. */
  expires: number;
}

function signature(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** The cookie value that pins `remote` to `buildId` until `expires` (s since the epoch). */
export function signPreview(key: string, pin: PreviewPin): string {
  if (key.length < MIN_PREVIEW_KEY_LENGTH)
    throw new Error(`a preview key must be at least ${MIN_PREVIEW_KEY_LENGTH} characters`);
  if (!/^[a-z][a-z0-9-]*$/.test(pin.remote)) throw new Error(`"${pin.remote}" is not a remote's name`);
  if (!isBuildId(pin.buildId)) throw new Error(`"${pin.buildId}" is not a build id`);
  if (!Number.isInteger(pin.expires)) throw new Error('expires must be whole seconds since the epoch');
  const payload = [VERSION, pin.remote, pin.buildId, String(pin.expires)].join(SEPARATOR);
  return `${payload}${SEPARATOR}${signature(key, payload)}`;
}

/**
 * The pin a token carries, when it is well formed, signed with the key of the remote it names
 * (`keys`, by remote) and not expired at `nowS` (seconds since the epoch); otherwise undefined,
 * and `reason` says why (for the server's log, never the visitor).
 */
export function verifyPreview(
  token: string | undefined,
  keys: Readonly<Record<string, string | undefined>>,
  nowS: number,
): { pin: PreviewPin } | { pin?: undefined; reason: string } {
  if (!token) return { reason: 'no token' };
  if (token.length > 512) return { reason: 'the token is too long' };
  const parts = token.split(SEPARATOR);
  if (parts.length !== 5 || parts[0] !== VERSION) return { reason: 'the token is not a v1 preview token' };
  const [, remote, buildId, expiresText, given] = parts as [string, string, string, string, string];
  const key = Object.hasOwn(keys, remote) ? keys[remote] : undefined;
  if (!key) return { reason: `no preview key is configured for the ${remote} remote` };
  if (!isBuildId(buildId) || !/^\d{1,12}$/.test(expiresText)) return { reason: 'the token is malformed' };
  const payload = parts.slice(0, 4).join(SEPARATOR);
  const expected = Buffer.from(signature(key, payload));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    return { reason: 'the signature does not verify' };
  const expires = Number(expiresText);
  if (expires <= nowS) return { reason: 'the token has expired' };
  if (expires > nowS + MAX_PREVIEW_TTL_S) return { reason: 'the token lives longer than a preview may' };
  return { pin: { remote, buildId, expires } };
}
