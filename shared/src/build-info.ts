/** The build files every part publishes: `builds/latest.json` and `builds/meta/{id}.json`. */
export interface BuildInfo {
  id: string;
  timestamp: number;
}

export interface BuildMeta extends BuildInfo {
  app: string;
  version: string;
  /** So a deploy can keep the previous build's assets. */
  files: string[];
  integrity?: Record<string, string>;
}
