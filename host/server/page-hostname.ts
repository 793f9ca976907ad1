/**
 * The development default follows the page's hostname. The remotes' and the API's URLs that no
 * variable sets name `localhost`; a page opened at 127.0.0.1 or at the machine's LAN address is
 * sent them at its own hostname instead, so every part is reached the way the page was. URLs an
 * operator set are sent as they are (docs/decisions/0017-any-address-in-development.md).
 */
import { hostnameOfHost } from 'server/origins';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { RemoteSnapshot } from './remote-sources';

/** The hostname the defaults name. */
export const DEFAULT_HOSTNAME = 'localhost';

/** The origins that follow the page: each `http://localhost:<port>` the defaults gave. */
export type FollowedOrigins = ReadonlySet<string>;

/** `url` at `hostname` when its origin follows the page; otherwise `url` itself. */
export function atHostname(url: string, followed: FollowedOrigins, hostname: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const { origin } = parsed;
  if (!followed.has(origin) || !url.startsWith(origin)) return url;
  parsed.hostname = hostname;
  return parsed.origin + url.slice(origin.length);
}

/** The longest name DNS allows (RFC 1035), without the trailing dot, and the longest of its labels. */
export const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
/** `[IPv6]`, or a name (letters, digits, `-` and `_` in dot-separated labels, an IPv4 address too), then an optional port. */
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|([a-z0-9_-]+(?:\.[a-z0-9_-]+)*)\.?)(?::\d{1,5})?$/i;
/** Anything longer than a name, its dot, and a port: refused before the pattern reads it. */
const MAX_HOST_HEADER_LENGTH = MAX_HOSTNAME_LENGTH + ':65535'.length + 1;

/**
 * Whether a Host header names a host a server of ours could be reached at: a hostname of at
 * most 253 characters in labels of at most 63, an IPv4 or a bracketed IPv6 address, with an
 * optional port. None (HTTP/1.0) is valid: Node's server itself refuses an HTTP/1.1 request
 * without one.
 */
export function isValidHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  if (host.length > MAX_HOST_HEADER_LENGTH) return false;
  const match = HOST_HEADER.exec(host);
  if (!match) return false;
  const name = match[1];
  return (
    name === undefined ||
    (name.length <= MAX_HOSTNAME_LENGTH && name.split('.').every((label) => label.length <= MAX_LABEL_LENGTH))
  );
}

/** The hostname a page was requested at, when the configuration should follow it. */
export function pageHostname(hostHeader: string | undefined, followed: FollowedOrigins): string | undefined {
  if (followed.size === 0) return undefined;
  const hostname = hostnameOfHost(hostHeader);
  return hostname === DEFAULT_HOSTNAME ? undefined : hostname;
}

export function configAtHostname(config: RuntimeConfig, followed: FollowedOrigins, hostname: string): RuntimeConfig {
  const at = (url: string) => atHostname(url, followed, hostname);
  return {
    ...config,
    remotes: Object.fromEntries(
      Object.entries(config.remotes).flatMap(([name, url]) => (url === undefined ? [] : [[name, at(url)]])),
    ) as RuntimeConfig['remotes'],
    // An origin an operator allowed that the defaults also gave follows the page with the URLs at it.
    ...(config.remoteOrigins ? { remoteOrigins: config.remoteOrigins.map(at) } : {}),
    apiBaseUrl: at(config.apiBaseUrl),
  };
}

export function snapshotAtHostname(
  snapshot: RemoteSnapshot,
  followed: FollowedOrigins,
  hostname: string,
): RemoteSnapshot {
  const at = (url: string) => atHostname(url, followed, hostname);
  return {
    ...snapshot,
    manifestUrl: at(snapshot.manifestUrl),
    remoteEntry: at(snapshot.remoteEntry),
    exposes: new Map(
      [...snapshot.exposes].map(([module, files]) => [
        module,
        { ...files, scripts: files.scripts.map(at), sharedScripts: files.sharedScripts.map(at) },
      ]),
    ),
    integrity: new Map([...snapshot.integrity].map(([url, integrity]) => [at(url), integrity])),
  };
}
