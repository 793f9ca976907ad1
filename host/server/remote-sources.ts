/** Each remote's deployed builds and the builds previews pin, as snapshots; no page waits on a remote unbounded. */
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
  /** The stable build's newest good snapshot. */
  snapshot(remote: string): RemoteSnapshot | undefined;
  deployment(remote: string): RemoteDeployment | undefined;
  /** For a verified preview's page; never rejects. */
  pinned(remote: string, buildId: string): Promise<RemoteSnapshot | undefined>;
  refresh(): Promise<void>;
  start(intervalMs: number): () => void;
}

export interface RemoteSourcesOptions {
  remotes: Readonly<Record<string, string>>;
  allowedOrigins?: readonly string[];
  /** None: no remote copies of shared modules are preloaded. */
  hostShared?: ReadonlySet<string>;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  log?: (message: string) => void;
  onFailure?: (remote: string) => void;
  maxPinned?: number;
  /** None: data pages render in the browser. */
  renderPools?: RenderPools;
  /** None: every route a manifest publishes. */
  grants?: Pick<RuntimeConfig, 'routeGrants'>;
  now?: () => number;
}

/** Reasons from remotes' files are bounded. */
const MAX_LOGGED_REASONS = 256;

export function createRemoteSources(options: RemoteSourcesOptions): RemoteSources {
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const log = options.log ?? ((message) => serverLog().warn(message));
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
