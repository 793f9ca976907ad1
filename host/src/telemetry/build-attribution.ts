/**
 * Which build of each remote this page runs, by remote and by a script's URL (under its build's
 * public path), from the manifests the loading plugin accepted. Every build read stays known: a
 * script of an older build still names its own.
 */
import { HOST_PART, UNKNOWN_BUILD } from 'shared/telemetry-values';

export interface BuildAttribution {
  /**
   * A manifest the host accepted for `remote`, its files under `publicPath`; `integrity` is what
   * the loading plugin holds of every script's integrity, by URL.
   */
  record(remote: string, publicPath: string, build: string, integrity: ReadonlyMap<string, string>): void;
  /** The build of a part: the host's own, or the last one read of a remote; `unknown` before any. */
  buildOf(part: string): string;
  /** The remote and build whose public path a URL is under. */
  ownerOf(url: string): { remote: string; build: string } | undefined;
  /** The integrity a manifest gives for a script's URL. */
  integrityOf(url: string): string | undefined;
}

/** `remotes`: the configured ones, whose manifests are recorded (the runtime may name others). */
export function createBuildAttribution(hostBuild: string, remotes: Iterable<string>): BuildAttribution {
  const configured = new Set(remotes);
  const latest = new Map<string, string>();
  /** By public path; the longest prefix of a URL wins. */
  const byPublicPath = new Map<string, { remote: string; build: string }>();
  let integrity: ReadonlyMap<string, string> | undefined;
  return {
    record(remote, publicPath, build, integrityByUrl) {
      integrity = integrityByUrl;
      if (!configured.has(remote)) return;
      latest.set(remote, build);
      byPublicPath.set(publicPath, { remote, build });
    },
    buildOf: (part) => (part === HOST_PART ? hostBuild : (latest.get(part) ?? UNKNOWN_BUILD)),
    ownerOf(url) {
      let found: { path: string; owner: { remote: string; build: string } } | undefined;
      for (const [path, owner] of byPublicPath) {
        if (url.startsWith(path) && path.length > (found?.path.length ?? -1)) found = { path, owner };
      }
      return found?.owner;
    },
    integrityOf: (url) => integrity?.get(url),
  };
}
