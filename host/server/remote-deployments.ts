/**
 * Follows each remote's deployment: its stable build read from the remote's root, a canary under
 * trial from its own copy (decision 0021), each again only when its id changes; the builds a page
 * may fall back to are only checked to be there. A remote down or answering nonsense changes
 * nothing: the last good deployment is kept.
 */
import { DeploymentPoller, fetchDeploymentFile } from 'server/deployment-poller';
import { buildManifestUrl, DEPLOYMENT_FILE, type DeploymentState } from 'shared/deployment';
import { errorMessage } from 'shared/http-error';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';
import type { SnapshotReader } from './snapshot-reader';

/**
 * When a deployment last changed: its file's Last-Modified (each deploy renames a new file over
 * it), or when this server first read it as it is now, whichever is later. Not its `timestamp`,
 * which an abort or a rollback keeps or moves back. A future Last-Modified counts as now.
 */
export function changedAtOf(
  lastModified: string | null,
  seen: { text: string; at: number | undefined } | undefined,
  text: string,
  now: number,
): number | undefined {
  const modified = lastModified ? Math.min(Date.parse(lastModified), now) : Number.NaN;
  const at = seen === undefined ? undefined : seen.text === text ? seen.at : now;
  if (Number.isNaN(modified)) return at;
  return at === undefined ? modified : Math.max(modified, at);
}

export interface RemoteDeploymentsOptions {
  remotes: Readonly<Record<string, string>>;
  reader: SnapshotReader;
  fetchImpl: typeof fetch;
  timeoutMs: number;
  now: () => number;
  /** Failures, once per new reason. */
  log: (message: string) => void;
  /** Deploys and recoveries. */
  note: (message: string) => void;
  logOnce: (message: string) => void;
  onFailure?: (remote: string) => void;
  /** Hears each deployment read, to drop what it revokes. */
  onRead?: (remote: string, deployment: RemoteDeployment) => void;
}

export class RemoteDeployments {
  private readonly deployments = new Map<string, RemoteDeployment>();
  private readonly seenStates = new Map<string, { text: string; at: number | undefined }>();
  readonly poller: DeploymentPoller;

  constructor(private readonly options: RemoteDeploymentsOptions) {
    this.poller = new DeploymentPoller({
      parts: Object.keys(options.remotes),
      read: (remote) => this.read(remote),
      onFailure: (remote, reason, previous) => {
        options.onFailure?.(remote);
        if (previous === reason) return;
        const kept = this.deployments.has(remote) ? 'keeping its last good build' : 'its pages get no hints for now';
        options.log(`cannot read the ${remote} remote (${reason}); ${kept}`);
      },
      onRecovery: (remote) => options.note(`the ${remote} remote answers again`),
    });
  }

  get(remote: string): RemoteDeployment | undefined {
    return this.deployments.get(remote);
  }

  stable(remote: string): RemoteSnapshot | undefined {
    const deployment = this.deployments.get(remote);
    return deployment?.builds.get(deployment.state.id);
  }

  private async readState(remote: string): Promise<{ read: DeploymentState; changedAt: number | undefined }> {
    const { remotes, timeoutMs, fetchImpl, now } = this.options;
    const url = new URL(DEPLOYMENT_FILE, remotes[remote]).href;
    const { state: read, lastModified } = await fetchDeploymentFile(url, timeoutMs, fetchImpl);
    const text = JSON.stringify(read);
    const changedAt = changedAtOf(lastModified, this.seenStates.get(remote), text, now());
    this.seenStates.set(remote, { text, at: changedAt });
    return { read, changedAt };
  }

  private async read(remote: string): Promise<void> {
    const root = this.options.remotes[remote];
    if (root === undefined) return;
    const { read, changedAt } = await this.readState(remote);
    const current = this.deployments.get(remote);
    const known = current?.builds.get(read.id);
    const stable =
      known?.manifestUrl === root
        ? known
        : await this.options.reader.read(remote, root, read.id, this.stable(remote)?.published);
    const canary = await this.readCanary(remote, root, read, current);
    const state: DeploymentState = { ...read };
    if (!canary) delete state.canary;
    const copies = await this.readCopies(root, state, current);
    const builds = new Map([[stable.buildId, stable]]);
    if (canary) builds.set(canary.buildId, canary);
    const deployment = { state, builds, copies, ...(changedAt === undefined ? {} : { changedAt }) };
    this.deployments.set(remote, deployment);
    this.options.onRead?.(remote, deployment);
    this.noteChanges(remote, current?.state, state);
  }

  private noteChanges(remote: string, was: DeploymentState | undefined, state: DeploymentState): void {
    const { note } = this.options;
    if (was && was.id !== state.id) note(`the ${remote} remote is now build ${state.id}`);
    const canary = state.canary;
    if (canary && (was?.canary?.id !== canary.id || was.canary.percent !== canary.percent)) {
      note(`the ${remote} remote's canary build ${canary.id} gets ${canary.percent} % of visitors`);
    } else if (was?.canary && !canary) note(`the ${remote} remote has no canary build now`);
  }

  /** The canary from its copy, kept while its id stays; a copy that cannot be read leaves it out. */
  private async readCanary(
    remote: string,
    root: string,
    state: DeploymentState,
    current: RemoteDeployment | undefined,
  ): Promise<RemoteSnapshot | undefined> {
    const { canary } = state;
    if (!canary) return undefined;
    const manifestUrl = buildManifestUrl(root, canary.id);
    const known = current?.builds.get(canary.id);
    if (known?.manifestUrl === manifestUrl) return known;
    try {
      return await this.options.reader.read(remote, manifestUrl, canary.id, this.stable(remote)?.published);
    } catch (error) {
      this.options.logOnce(
        `the ${remote} remote's canary build ${canary.id} cannot be read from its copy (${errorMessage(error)}); every visitor gets the stable build ${state.id}`,
      );
      return undefined;
    }
  }

  /** The fallbacks whose copy is there: the stable build before this one, and the stable build under a canary. */
  private async readCopies(
    root: string,
    state: DeploymentState,
    current: RemoteDeployment | undefined,
  ): Promise<Set<string>> {
    const fallbacks = [state.previous, state.canary ? state.id : undefined].filter(
      (id): id is string => id !== undefined,
    );
    const copies = new Set<string>();
    for (const id of fallbacks) {
      // A build's copy never changes: one found while the deployment named it is still there.
      const found = current?.copies.has(id) || (await this.options.reader.hasCopy(root, id));
      if (found) copies.add(id);
    }
    return copies;
  }
}
