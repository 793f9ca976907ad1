/** Default URLs follow the page's hostname (docs/decisions/0017-any-address-in-development.md). */
import { hostnameOfHost } from 'server/host-header';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { RemoteSnapshot } from './remote-snapshot';

export const DEFAULT_HOSTNAME = 'localhost';

export type FollowedOrigins = ReadonlySet<string>;

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
