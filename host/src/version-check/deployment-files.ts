/**
 * The version check's watch of deployment files (`builds/latest.json`): the host's, and that of
 * each remote the page loaded without a build the host's server named.
 */
import type { BuildInfo } from 'shared/build-info';
import { DEPLOYMENT_FILE, DEPLOYMENT_FILE_NAME, HOST_BUILDS_DIR, META_DIR_NAME } from 'shared/deployment';
import { freshJson, type VersionCheckDeps } from './version-check-deps';

export const HOST_BUILDS_PATH = `/${HOST_BUILDS_DIR}`;

/** A remote's `builds/latest.json`, beside its manifest or remote entry. */
export function remoteLatestUrl(entryUrl: string): string {
  return new URL(DEPLOYMENT_FILE, entryUrl).toString();
}

function isBuildInfo(value: unknown): value is BuildInfo {
  return typeof value === 'object' && value !== null && typeof (value as BuildInfo).id === 'string';
}

export class DeploymentFiles {
  /** By remote: its file and the build it named when the page loaded the remote. */
  private readonly remotes = new Map<string, { url: string; id: string }>();

  constructor(
    private readonly deps: VersionCheckDeps,
    private readonly page: { stale: boolean },
  ) {}

  private async latestId(url: string): Promise<string> {
    const body = await freshJson(this.deps, url);
    if (!isBuildInfo(body)) throw new Error(`${url} is not a build file`);
    return body.id;
  }

  private async checkOne(url: string, knownId: string, what: string): Promise<void> {
    try {
      if ((await this.latestId(url)) !== knownId) this.page.stale = true;
    } catch (error) {
      this.deps.log(`Checking for a new ${what} build failed`, error);
    }
  }

  /** The host's file, then each watched remote's. */
  checkAll(hostBuild: string): Promise<void>[] {
    return [
      this.checkOne(`${HOST_BUILDS_PATH}/${DEPLOYMENT_FILE_NAME}`, hostBuild, 'host'),
      ...[...this.remotes].map(([name, remote]) => this.checkOne(remote.url, remote.id, `${name} remote`)),
    ];
  }

  watches(remote: string): boolean {
    return this.remotes.has(remote);
  }

  async watch(remote: string, entryUrl: string): Promise<void> {
    const url = remoteLatestUrl(entryUrl);
    try {
      this.remotes.set(remote, { url, id: await this.latestId(url) });
    } catch (error) {
      this.deps.log(`Reading the ${remote} remote's build id failed`, error);
    }
  }

  unwatch(remote: string): void {
    this.remotes.delete(remote);
  }

  /** Warms the cache with this build's meta file; a failure is only logged. */
  async prefetchMeta(hostBuild: string): Promise<void> {
    const url = `${HOST_BUILDS_PATH}/${META_DIR_NAME}/${hostBuild}.json`;
    try {
      const response = await this.deps.fetch(url);
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      await response.json();
    } catch (error) {
      this.deps.log('Fetching the build manifest failed', error);
    }
  }
}
