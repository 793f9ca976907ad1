/** The one place a build is named (docs/decisions/0051). */
import { manifestBuildId } from 'shared/remote-manifest';

type ByRemote = Readonly<Partial<Record<string, string>>>;

export interface BuildsConfig {
  remotes: ByRemote;
  remoteBuilds?: ByRemote;
  remoteFallbacks?: ByRemote;
}

const BUILD_MANIFEST_URL = /\/builds\/([^/?#]+)\/mf-manifest\.json(?:[?#]|$)/;

/** A fallback's build is the one its URL names. */
export function configuredBuild(config: BuildsConfig, remote: string, manifestUrl: string): string | undefined {
  if (manifestUrl === config.remotes[remote]) return config.remoteBuilds?.[remote];
  if (manifestUrl !== config.remoteFallbacks?.[remote]) return undefined;
  const id = BUILD_MANIFEST_URL.exec(manifestUrl)?.[1];
  return id === undefined ? undefined : decodeURIComponent(id);
}

/** Else the id the build stamped in its manifest: a label only. */
export function attributedBuild(
  config: BuildsConfig | undefined,
  remote: string,
  url: string,
  manifest: unknown,
): string {
  return (config && configuredBuild(config, remote, url)) ?? manifestBuildId(manifest);
}
