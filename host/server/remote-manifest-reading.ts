/** What a remote's `mf-manifest.json` tells the host's server: its scripts and the routes it publishes. */
import { manifestRoutes, type CompositionRefusal } from 'shared/composition';
import {
  manifestFileUrl,
  manifestIntegrity,
  manifestPublicPath,
  manifestRemoteEntry,
  sharedFallbackScripts,
} from 'shared/remote-manifest';
import { isAllowedRemoteUrl } from 'shared/runtime-config';
import type { ExposeFiles, PublishedRoutes, RemoteSnapshot } from './remote-snapshot';

/** A refusal of the whole document goes to `onRefused`. */
export function publishedRoutesIn(
  remote: string,
  body: unknown,
  kept?: PublishedRoutes,
  onRefused?: (refusal: CompositionRefusal) => void,
): PublishedRoutes {
  const { routes, refusals, refusedWhole } = manifestRoutes(remote, body, kept?.routes);
  if (!refusedWhole) return { routes, refusals };
  for (const refusal of refusals) onRefused?.(refusal);
  return { routes, refusals: [] };
}

interface ManifestJson {
  exposes?: Array<{ name?: unknown; assets?: { js?: { sync?: unknown } } }>;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The manifest's entry and per-module scripts as absolute URLs, where the federation runtime asks
 * for them, and their integrity; throws on a manifest that lacks them or whose scripts are not at
 * an allowed origin. `hostShared`: the shared modules the host provides (none: no shared scripts).
 */
export function readManifest(
  manifestUrl: string,
  body: unknown,
  hostShared?: ReadonlySet<string>,
  allowedOrigins: readonly string[] = [new URL(manifestUrl).origin],
): Pick<RemoteSnapshot, 'remoteEntry' | 'exposes' | 'integrity'> {
  const manifest = body as ManifestJson;
  const entry = manifestRemoteEntry(body);
  if (!entry) throw new Error('it names no remoteEntry');
  const publicPath = manifestPublicPath(manifestUrl, body);
  if (publicPath === undefined) throw new Error('its publicPath is neither "auto" nor an absolute URL');
  const url = (file: string) => manifestFileUrl(publicPath, file);
  const remoteEntry = url(entry.file);
  if (!isAllowedRemoteUrl(remoteEntry, allowedOrigins)) {
    throw new Error(`its scripts are at ${new URL(remoteEntry).origin}, which is not an allowed remote origin`);
  }
  const integrity = new Map([...manifestIntegrity(body)].map(([file, value]) => [url(file), value]));
  const exposes = new Map<string, ExposeFiles>();
  for (const expose of manifest.exposes ?? []) {
    if (typeof expose.name !== 'string') continue;
    const scripts = strings(expose.assets?.js?.sync).map(url);
    const sharedScripts = hostShared
      ? sharedFallbackScripts(manifest, expose.name, hostShared)
          .map(url)
          .filter((script) => !scripts.includes(script))
      : [];
    exposes.set(expose.name, { scripts, sharedScripts });
  }
  return { remoteEntry, exposes, integrity };
}

export function sharedModulesOf(body: unknown): Set<string> {
  const shared = (body as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) throw new Error('it lists no shared modules');
  return new Set(
    shared.flatMap((entry: { name?: unknown } | null) => (typeof entry?.name === 'string' ? [entry.name] : [])),
  );
}
