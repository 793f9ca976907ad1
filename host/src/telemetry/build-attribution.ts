/** Which build each part and script belongs to, older builds kept. */
import { HOST_PART, UNKNOWN_BUILD } from 'shared/telemetry-values';

export interface BuildAttribution {
  record(remote: string, publicPath: string, build: string, integrity: ReadonlyMap<string, string>): void;
  /** `unknown` before any manifest of the remote. */
  buildOf(part: string): string;
  ownerOf(url: string): { remote: string; build: string } | undefined;
  integrityOf(url: string): string | undefined;
}

/** Only the configured `remotes`: the runtime may name others. */
export function createBuildAttribution(hostBuild: string, remotes: Iterable<string>): BuildAttribution {
  const configured = new Set(remotes);
  const latest = new Map<string, string>();
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
