/**
 * The remote manifests the page accepted, and the integrity of every file they name: what the
 * loading plugin checks each download against (docs/decisions/0019-remote-code-integrity.md).
 */
import { manifestFileUrl, manifestIntegrity, manifestPublicPath, manifestRemoteEntry } from 'shared/remote-manifest';
import { isAllowedRemoteUrl } from 'shared/runtime-config-checks';

/** Remote code the host will not load; its message names the URL and why. */
export class RemoteRefusedError extends Error {
  constructor(url: string, reason: string) {
    super(`Refused ${url}: ${reason}`);
    this.name = 'RemoteRefusedError';
  }
}

/** The entry types the runtime loads with a `<script>` element: the others are ES modules or SystemJS. */
const CLASSIC_SCRIPT_ENTRY = new Set(['global', 'var', 'script']);

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export class AcceptedManifests {
  /** By absolute URL. */
  readonly integrityByUrl = new Map<string, string>();
  private readonly byRemote = new Map<string, { manifest: unknown; publicPath: string }>();

  constructor(
    private readonly allowedOrigins: readonly string[],
    private readonly requireIntegrity: boolean,
  ) {}

  isAllowed(url: string): boolean {
    return isAllowedRemoteUrl(url, this.allowedOrigins);
  }

  checkOrigin(url: string): void {
    if (!this.isAllowed(url)) {
      throw new RemoteRefusedError(url, `${originOf(url)} is not an allowed remote origin (remoteOrigins)`);
    }
  }

  /**
   * Records a manifest's integrity and gives its public path; undefined for one the runtime
   * cannot use (it reports that itself); throws a RemoteRefusedError for one not to load.
   */
  accept(manifestUrl: string, manifest: unknown, remote: string | undefined): string | undefined {
    const entry = manifestRemoteEntry(manifest);
    if (!entry) return undefined;
    const publicPath = manifestPublicPath(manifestUrl, manifest);
    if (publicPath === undefined) {
      throw new RemoteRefusedError(manifestUrl, 'its publicPath is neither "auto" nor an absolute URL');
    }
    const entryUrl = manifestFileUrl(publicPath, entry.file);
    this.checkOrigin(entryUrl);
    if (!CLASSIC_SCRIPT_ENTRY.has(entry.type)) {
      throw new RemoteRefusedError(
        entryUrl,
        `its type "${entry.type}" is not a script a browser checks the integrity of`,
      );
    }
    for (const [file, integrity] of manifestIntegrity(manifest)) {
      this.integrityByUrl.set(manifestFileUrl(publicPath, file), integrity);
    }
    if (this.requireIntegrity && !this.integrityByUrl.has(entryUrl)) {
      throw new RemoteRefusedError(entryUrl, `${manifestUrl} gives no integrity for it`);
    }
    if (remote) this.byRemote.set(remote, { manifest, publicPath });
    return publicPath;
  }

  /** The integrity a script must match; throws for one not to load at all. */
  scriptIntegrity(url: string): string | undefined {
    this.checkOrigin(url);
    const integrity = this.integrityByUrl.get(url);
    if (!integrity && this.requireIntegrity) {
      throw new RemoteRefusedError(url, 'no manifest read gives its integrity');
    }
    return integrity;
  }

  manifestOf(remote: string): { manifest: unknown; publicPath: string } | undefined {
    return this.byRemote.get(remote);
  }
}
