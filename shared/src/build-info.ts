/** The build files every part publishes: `builds/latest.json` and `builds/meta/{id}.json`. */
export interface BuildInfo {
  id: string;
  timestamp: number;
}

export interface BuildMeta extends BuildInfo {
  app: string;
  version: string;
  /** Every file this build emitted, so a deploy can keep the previous build's assets. */
  files: string[];
  /** A remote's: the sha384 integrity of each of its scripts, by file (as in its `mf-manifest.json`). */
  integrity?: Record<string, string>;
}
