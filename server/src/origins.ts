/** The origins a server answers cross-origin (docs/decisions/0017-any-address-in-development.md). */
import { HOSTNAME_PATTERN, hostnameOfHost } from './host-header';

export type AllowedOrigin = string | RegExp;

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

/** A pattern matches only a page on the request's own hostname: another site on the host's port is not ours. */
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
