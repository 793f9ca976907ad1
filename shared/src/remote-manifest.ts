/**
 * The integrity of a remote's scripts, as its build records it in its `mf-manifest.json`: the
 * field `integrity` gives, for `remoteEntry.js` and every chunk, by file name (relative to the
 * manifest's public path, as the manifest names its files), the `sha384-…` digest of the bytes the
 * build emitted. The host loads each of the remote's scripts with it, so a browser runs none
 * whose bytes differ (docs/decisions/0019-remote-code-integrity.md).
 */
import { BUILD_ID_PATTERN } from './deployment';
import { UNKNOWN_BUILD } from './telemetry-values';

export const INTEGRITY_FIELD = 'integrity';

/** What an `integrity` attribute takes for one sha384 digest: `sha384-` and 64 base64 characters. */
const SHA384_INTEGRITY = /^sha384-[A-Za-z0-9+/]{64}$/;

export function isSha384Integrity(value: unknown): value is string {
  return typeof value === 'string' && SHA384_INTEGRITY.test(value);
}

/** The manifest's integrity of each file; a manifest without the field (an older build) gives none. */
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
 * Where the manifest's files are, as the federation runtime reads it: for `publicPath` "auto" (or
 * empty) the manifest's own folder, else `publicPath` itself, which must be an absolute http(s)
 * URL. Undefined for any other: a relative one (the runtime would resolve it against the page), or
 * none at all (a `getPublicPath` function, which the runtime would run as code: the host never
 * lets it).
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

/** A file the manifest names, as the runtime addresses it: the public path and the name, end to end. */
export function manifestFileUrl(publicPath: string, file: string): string {
  return new URL(`${publicPath}${file}`).href;
}

/**
 * The remote entry's file (its `path` and `name` joined as the runtime joins them) and how it is
 * loaded (`type`: "global" for a classic script); undefined when the manifest names none.
 */
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

/**
 * A remote's own copies of the shared modules the page lacks, as its build names them in the
 * manifest (`build/shared-fallbacks.ts`), so the host's HTML can fetch them with the page's scripts.
 */
/** The manifest's `sharedFallbacks` field. */
export interface SharedFallbacks {
  /** The shared modules each exposed module's code uses, by exposed name (`GiftPage`). */
  exposes: Record<string, string[]>;
  /** For each shared module: the scripts of the remote's own copy, and the shared modules that copy uses. */
  shared: Record<string, { js: string[]; uses: string[] }>;
}

export const SHARED_FALLBACKS_FIELD = 'sharedFallbacks';

/**
 * The scripts of the remote's own copies of the shared modules an exposed module needs that the
 * page does not provide (`provided`), and of what those copies need in turn, as file names
 * relative to the manifest's files. An older manifest without the field gives none.
 */
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

/**
 * The build a manifest belongs to: every build writes its id (`BUILD_ID`) at the top of its
 * `mf-manifest.json` (`build/build-info-plugin.ts`), so the host can tell which build of a
 * remote it runs and label what that build does.
 */
export const BUILD_ID_FIELD = 'buildId';

/** The manifest's build id; `unknown` for a manifest without one (an older build) or with a malformed one. */
export function manifestBuildId(manifest: unknown): string {
  const value = (manifest as { [BUILD_ID_FIELD]?: unknown } | null)?.[BUILD_ID_FIELD];
  return typeof value === 'string' && BUILD_ID_PATTERN.test(value) ? value : UNKNOWN_BUILD;
}
