/**
 * The sha384 integrity of a remote's scripts as its build records it in `mf-manifest.json`: the host
 * loads each script with it (docs/decisions/0019-remote-code-integrity.md).
 */
import { BUILD_ID_PATTERN } from './deployment';
import { UNKNOWN_BUILD } from './telemetry-values';

export const INTEGRITY_FIELD = 'integrity';

const SHA384_INTEGRITY = /^sha384-[A-Za-z0-9+/]{64}$/;

export function isSha384Integrity(value: unknown): value is string {
  return typeof value === 'string' && SHA384_INTEGRITY.test(value);
}

export function manifestIntegrity(manifest: unknown): Map<string, string> {
  const field = (manifest as { [INTEGRITY_FIELD]?: unknown } | null)?.[INTEGRITY_FIELD];
  const integrity = new Map<string, string>();
  if (typeof field !== 'object' || field === null || Array.isArray(field)) return integrity;
  for (const [file, value] of Object.entries(field)) if (isSha384Integrity(value)) integrity.set(file, value);
  return integrity;
}

interface ManifestMetaData {
  publicPath?: unknown;
  remoteEntry?: { name?: unknown; path?: unknown; type?: unknown };
}

function metaDataOf(manifest: unknown): ManifestMetaData | undefined {
  const metaData = (manifest as { metaData?: unknown } | null)?.metaData;
  return typeof metaData === 'object' && metaData !== null ? (metaData as ManifestMetaData) : undefined;
}

/**
 * `auto` is the manifest's folder, else an absolute http(s) URL; a relative one or a
 * `getPublicPath` function (code the runtime would run) is refused.
 */
export function manifestPublicPath(manifestUrl: string, manifest: unknown): string | undefined {
  const publicPath = metaDataOf(manifest)?.publicPath;
  if (typeof publicPath !== 'string') return undefined;
  if (publicPath === 'auto' || publicPath === '') {
    return manifestUrl
      .replace(/#.*$/, '')
      .replace(/\?.*$/, '')
      .replace(/\/[^/]+$/, '/');
  }
  try {
    const { protocol } = new URL(publicPath);
    return protocol === 'https:' || protocol === 'http:' ? publicPath : undefined;
  } catch {
    return undefined;
  }
}

export function manifestFileUrl(publicPath: string, file: string): string {
  return new URL(`${publicPath}${file}`).href;
}

export function manifestRemoteEntry(manifest: unknown): { file: string; type: string } | undefined {
  const entry = metaDataOf(manifest)?.remoteEntry;
  if (typeof entry?.name !== 'string' || entry.name === '') return undefined;
  const type = typeof entry.type === 'string' ? entry.type : 'global';
  const path = (typeof entry.path === 'string' ? entry.path : '')
    .replace(/^\.$/, '')
    .replace(/^\.?\//, '')
    .replace(/\/$/, '');
  return { file: path ? `${path}/${entry.name}` : entry.name, type };
}

/** A remote's own copies of shared modules the page lacks, so the host's HTML fetches them early. */
export interface SharedFallbacks {
  exposes: Record<string, string[]>;
  shared: Record<string, { js: string[]; uses: string[] }>;
}

export const SHARED_FALLBACKS_FIELD = 'sharedFallbacks';

export function sharedFallbackScripts(manifest: unknown, expose: string, provided: ReadonlySet<string>): string[] {
  const fallbacks = (manifest as { [SHARED_FALLBACKS_FIELD]?: Partial<SharedFallbacks> } | null)?.[
    SHARED_FALLBACKS_FIELD
  ];
  const roots = fallbacks?.exposes?.[expose];
  if (!Array.isArray(roots) || !fallbacks?.shared) return [];
  const shared = fallbacks.shared;
  const scripts = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: unknown): void => {
    if (typeof key !== 'string' || seen.has(key) || provided.has(key)) return;
    seen.add(key);
    const copy = Object.hasOwn(shared, key) ? shared[key] : undefined;
    for (const file of Array.isArray(copy?.js) ? copy.js : []) if (typeof file === 'string') scripts.add(file);
    (Array.isArray(copy?.uses) ? copy.uses : []).forEach(visit);
  };
  roots.forEach(visit);
  return [...scripts];
}

export const BUILD_ID_FIELD = 'buildId';

export function manifestBuildId(manifest: unknown): string {
  const value = (manifest as { [BUILD_ID_FIELD]?: unknown } | null)?.[BUILD_ID_FIELD];
  return typeof value === 'string' && BUILD_ID_PATTERN.test(value) ? value : UNKNOWN_BUILD;
}
