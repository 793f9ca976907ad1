/**
 * Notices new deployments. Shortly after start it fetches this build's meta file (warming the
 * cache; a failure is only logged), then polls the host's `latest.json` and that of every remote
 * it has loaded. Once any of them names another build, the next navigation is a full page load.
 */
import type { BuildInfo } from 'shared/build-info';

export const META_PREFETCH_DELAY_MS = 1000;
export const HOST_BUILDS_PATH = '/_app/builds';

export interface ConnectionInfo {
  effectiveType?: string;
  saveData?: boolean;
}

export interface VersionCheckDeps {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  connection: () => ConnectionInfo | undefined;
  log: (message: string, error?: unknown) => void;
}

export interface VersionCheck {
  start(): void;
  stop(): void;
  /** Checks now; resolves when every check has answered or failed. */
  poll(): Promise<void>;
  /** Starts watching a remote's builds once it has been loaded. */
  trackRemote(name: string, entryUrl: string): Promise<void>;
  /** True once a newer build of the host or of a loaded remote is known. */
  isStale(): boolean;
}

export interface VersionCheckOptions {
  buildId: string;
  intervalMs: number;
  deps: VersionCheckDeps;
}

export function isSlowConnection(connection: ConnectionInfo | undefined): boolean {
  return connection?.saveData === true || connection?.effectiveType === 'slow-2g';
}

/** A remote's `builds/latest.json`, beside its manifest or remote entry. */
export function remoteLatestUrl(entryUrl: string): string {
  return new URL('builds/latest.json', entryUrl).toString();
}

function isBuildInfo(value: unknown): value is BuildInfo {
  return typeof value === 'object' && value !== null && typeof (value as BuildInfo).id === 'string';
}

export function createVersionCheck({ buildId, intervalMs, deps }: VersionCheckOptions): VersionCheck {
  const remotes = new Map<string, { url: string; id: string }>();
  let stale = false;
  let timer: unknown;
  let running = false;

  async function latestId(url: string): Promise<string> {
    const separator = url.includes('?') ? '&' : '?';
    const response = await deps.fetch(`${url}${separator}${deps.now()}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (!isBuildInfo(body)) throw new Error(`${url} is not a build file`);
    return body.id;
  }

  async function checkOne(url: string, knownId: string, what: string): Promise<void> {
    try {
      if ((await latestId(url)) !== knownId) stale = true;
    } catch (error) {
      deps.log(`Checking for a new ${what} build failed`, error);
    }
  }

  async function prefetchMeta(): Promise<void> {
    const url = `${HOST_BUILDS_PATH}/meta/${buildId}.json`;
    try {
      const response = await deps.fetch(url);
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      await response.json();
    } catch (error) {
      deps.log('Fetching the build manifest failed', error);
    }
  }

  function schedule(): void {
    timer = deps.setTimeout(() => {
      void check.poll().finally(() => {
        if (running) schedule();
      });
    }, intervalMs);
  }

  const check: VersionCheck = {
    start() {
      if (running) return;
      running = true;
      if (!isSlowConnection(deps.connection())) {
        deps.setTimeout(() => void prefetchMeta(), META_PREFETCH_DELAY_MS);
      }
      schedule();
    },
    stop() {
      running = false;
      deps.clearTimeout(timer);
    },
    async poll() {
      await Promise.all([
        checkOne(`${HOST_BUILDS_PATH}/latest.json`, buildId, 'host'),
        ...[...remotes].map(([name, remote]) => checkOne(remote.url, remote.id, `${name} remote`)),
      ]);
    },
    async trackRemote(name, entryUrl) {
      if (remotes.has(name)) return;
      const url = remoteLatestUrl(entryUrl);
      try {
        remotes.set(name, { url, id: await latestId(url) });
      } catch (error) {
        deps.log(`Reading the ${name} remote's build id failed`, error);
      }
    },
    isStale: () => stale,
  };
  return check;
}

export function browserVersionCheckDeps(): VersionCheckDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    now: () => Date.now(),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    connection: () => (navigator as Navigator & { connection?: ConnectionInfo }).connection,
    log: (message, error) => console.warn(message, error),
  };
}
