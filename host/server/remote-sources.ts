/**
 * What the host's server knows of each remote, to start the route's remote from the HTML: its
 * deployment's builds (remote-deployments.ts) and the builds previews pin (pinned-builds.ts), each
 * read into a snapshot (snapshot-reader.ts). A page is never held up waiting for a remote (a
 * preview's first page waits a bounded time).
 */
import { serverLog } from 'server/log';
import { boundedLogOnce } from 'server/log-once';
import { isRevoked } from 'shared/deployment';
import type { RuntimeConfig } from 'shared/runtime-config';
import { MAX_PINNED_BUILDS, PinnedBuilds } from './pinned-builds';
import { RemoteDeployments } from './remote-deployments';
import type { RenderPools } from './remote-renderers';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';
import { SnapshotReader } from './snapshot-reader';

export interface RemoteSources {
  /** The newest good snapshot of a remote's stable build; undefined while none has been read. */
  snapshot(remote: string): RemoteSnapshot | undefined;
  deployment(remote: string): RemoteDeployment | undefined;
  /**
   * A build read from its own copy, for a page a verified preview pins to it: the deployment's
   * snapshot when it serves that build, else pinned-builds.ts's. Never rejects.
   */
  pinned(remote: string, buildId: string): Promise<RemoteSnapshot | undefined>;
  /** Reads every remote's deployment now (and fetches what changed); never rejects. */
  refresh(): Promise<void>;
  /** Polls every `intervalMs`; returns a function that stops polling. */
  start(intervalMs: number): () => void;
}

export interface RemoteSourcesOptions {
  /** Manifest URL of each remote, as the runtime configuration gives it to browsers. */
  remotes: Readonly<Record<string, string>>;
  /** `allowedRemoteOrigins`: a manifest whose scripts are elsewhere is refused. None: its own origin. */
  allowedOrigins?: readonly string[];
  /** The shared modules the host's page provides; none given: no remote copies are preloaded. */
  hostShared?: ReadonlySet<string>;
  fetchImpl?: typeof fetch;
  /** Longest wait for one answer from a remote. */
  timeoutMs?: number;
  log?: (message: string) => void;
  /** Called on every failed read of a remote, for a metric. */
  onFailure?: (remote: string) => void;
  maxPinned?: number;
  /** The processes that run the remotes' render bundles; none: data pages render in the browser. */
  renderPools?: RenderPools;
  /** The paths each remote was granted; none given: every route its manifest publishes. */
  grants?: Pick<RuntimeConfig, 'routeGrants'>;
  now?: () => number;
}

/** A remote's own failures are logged per remote; other reasons once each, this many at most. */
const MAX_LOGGED_REASONS = 256;

export function createRemoteSources(options: RemoteSourcesOptions): RemoteSources {
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const log = options.log ?? ((message) => serverLog().warn(message));
  /** Deploys and recoveries, at info: a given `log` hears them too. */
  const note = options.log ?? ((message) => serverLog().info(message));
  const logOnce = boundedLogOnce(log, MAX_LOGGED_REASONS);
  const reader = new SnapshotReader({ ...options, fetchImpl, timeoutMs, log, logOnce });
  const pinnedBuilds = new PinnedBuilds({
    remotes: options.remotes,
    read: (remote, manifestUrl, buildId) =>
      reader.read(remote, manifestUrl, buildId, deployments.stable(remote)?.published),
    timeoutMs,
    maxPinned: options.maxPinned ?? MAX_PINNED_BUILDS,
    logOnce,
  });
  const deployments = new RemoteDeployments({
    remotes: options.remotes,
    reader,
    fetchImpl,
    timeoutMs,
    now: options.now ?? Date.now,
    log,
    note,
    logOnce,
    onFailure: options.onFailure,
    onRead: (remote, { state }) => {
      for (const id of state.revoked ?? []) pinnedBuilds.drop(remote, id);
    },
  });
  return {
    snapshot: (remote) => deployments.stable(remote),
    deployment: (remote) => deployments.get(remote),
    async pinned(remote, buildId) {
      const deployment = deployments.get(remote);
      // A revoked build's code is never read, let alone run, for a page.
      if (isRevoked(deployment?.state, buildId)) return undefined;
      return deployment?.builds.get(buildId) ?? pinnedBuilds.get(remote, buildId);
    },
    refresh: () => deployments.poller.refreshAll(),
    start(intervalMs) {
      void this.refresh();
      deployments.poller.start(intervalMs);
      return () => deployments.poller.stop();
    },
  };
}
