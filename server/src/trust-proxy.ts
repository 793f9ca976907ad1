/** TRUST_PROXY: the proxies whose `X-Forwarded-*` headers the API and the host believe, judged by `@fastify/proxy-addr`. */
import { isIP } from 'node:net';
import { EnvError, type Reader } from './env';

export type TrustProxy = false | string[];

// proxy-addr's names for address ranges.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (family === 4 && isIP(range) === 4) return true;
  return /^\d{1,3}$/.test(range) && Number(range) <= (family === 4 ? 32 : 128);
}

/** `true` or a hop count is refused: every client would be believed. */
export function trustProxy(consequence: string): Reader<TrustProxy> {
  return (value, name) => {
    const raw = value?.trim();
    if (raw === undefined || raw === '' || raw === 'false') return false;
    if (raw === 'true' || /^\d+$/.test(raw)) {
      throw new EnvError(
        `${name}=${raw} would believe ${consequence}: ` +
          'name your proxies or load balancers instead, e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback',
      );
    }
    const entries = raw.split(',').map((part) => part.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      throw new EnvError(
        `${name} must be comma-separated proxy addresses, CIDR ranges or names (loopback, linklocal, uniquelocal); not valid: ${bad.map((entry) => `"${entry}"`).join(', ')}`,
      );
    }
    return entries;
  };
}
