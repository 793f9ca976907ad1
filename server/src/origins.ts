/**
 * Which pages a server answers cross-origin: exactly the origins an operator configured, or, in
 * the development default, the host's port on the hostname the request itself was sent to, so
 * the site works opened at localhost, 127.0.0.1 or the machine's LAN address alike
 * (docs/decisions/0017-any-address-in-development.md).
 */
import { HOSTNAME_PATTERN, hostnameOfHost } from './host-header';

/** An exact origin, or a pattern that also requires the page and this server to share a hostname. */
export type AllowedOrigin = string | RegExp;

/** `http://<any hostname>:<port>`: what a browser sends as the Origin of the host's pages on that port. */
export function anyHostnameOnPort(port: number): RegExp {
  return new RegExp(`^http://${HOSTNAME_PATTERN}:${port}$`);
}

function hostnameOfOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Whether a page at `origin` may use this server, reached at `requestHost` (its Host header). A
 * pattern matches only a page on the same hostname as the request: another site on the host's
 * port (`http://elsewhere.example:3000`) is not this deployment's page.
 */
export function isAllowedOrigin(
  origin: string,
  allowed: readonly AllowedOrigin[],
  requestHost: string | undefined,
): boolean {
  return allowed.some((entry) =>
    typeof entry === 'string'
      ? entry === origin
      : entry.test(origin) && hostnameOfOrigin(origin) === hostnameOfHost(requestHost),
  );
}
