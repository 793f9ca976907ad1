/**
 * The one place the page names the build of a remote it loads, from its configuration
 * (docs/decisions/0051-remote-loading-plugins.md): `remoteBuilds` for the remote's own manifest,
 * and for a `remoteFallbacks` manifest the build its URL names, as the host's server writes it
 * (`…/builds/{id}/mf-manifest.json`).
 */
import { manifestBuildId } from 'shared/remote-manifest';

type ByRemote = Readonly<Partial<Record<string, string>>>;

/** The part of the runtime configuration that names builds. */
export interface BuildsConfig {
  remotes: ByRemote;
  remoteBuilds?: ByRemote;
  remoteFallbacks?: ByRemote;
}

const BUILD_MANIFEST_URL = /\/builds\/([^/?#]+)\/mf-manifest\.json(?:[?#]|$)/;

/** The build `manifestUrl` is of, when the configuration says; undefined for a configuration that names none. */
export function configuredBuild(config: BuildsConfig, remote: string, manifestUrl: string): string | undefined {
  if (manifestUrl === config.remotes[remote]) return config.remoteBuilds?.[remote];
  if (manifestUrl !== config.remoteFallbacks?.[remote]) return undefined;
  const id = BUILD_MANIFEST_URL.exec(manifestUrl)?.[1];
  return id === undefined ? undefined : decodeURIComponent(id);
}

/**
 * The build telemetry labels a manifest's files with: the configuration's, else (a static
 * `config.json`, a remote the runtime names itself) the id the remote's build stamped in it.
 */
export function attributedBuild(
  config: BuildsConfig | undefined,
  remote: string,
  url: string,
  manifest: unknown,
): string {
  return (config && configuredBuild(config, remote, url)) ?? manifestBuildId(manifest);
}
