/**
 * The faults of a chaos run, made on the running topology, and how long the system took to come
 * back from each: the time from the fault until every API process answers its readiness (the
 * database reachable, migrations applied) and the public origin answers the API and serves every
 * remote's current build.
 *
 * - PostgreSQL restarted: `pg_ctl stop -m fast` (an operator's restart) or `-m immediate` (as a
 *   crash: recovery from the log at the next start), then started again at once.
 * - An API process SIGKILLed (its whole process group), then started again, as a supervisor does.
 * - An API process frozen (SIGSTOP) for FREEZE_MS, then resumed (SIGCONT). A stopped process's
 *   listening socket still completes connections (the kernel's backlog), so nginx's connect never
 *   fails: only its proxy_read_timeout tells it the process is gone, after which the process is
 *   passed over for fail_timeout. The access log says when nginx last sent it a request.
 * - A remote redeployed: its team's deploy command publishes its other build (the remote switches
 *   between two builds, so each deploy changes what visitors load).
 * - A remote rolled back: its team's rollback command makes the other build current again.
 * - A remote's server down for FREEZE_MS. nginx serves the remotes' folders from disk, so the
 *   remote's origin going away is its folder going away: renamed aside, every file of it then
 *   answers 404 (the same to a page as a server that is gone), and renamed back.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { REMOTES } from 'shared/remotes';
import { readAccessLog } from '../support/nginx-site';
import { readLatest } from '../support/redeploy';
import { REMOTE_NAMES, ROOT_DIR, type RemoteName } from '../support/test-env';
import { deployRemote, type Topology } from '../support/topology';
import { describeFault, type FaultKind, type PlannedFault } from './schedule';

/** How long a process stays frozen and a remote's folder stays away. */
export const FREEZE_MS = 20_000;
/** The longest a frozen process may go on receiving requests. */
export const OUT_OF_ROTATION_LIMIT_MS = 15_000;
/** How long recovery may take before the run says the system did not come back. */
const RECOVERY_LIMIT_MS = 120_000;
const PROBE_EVERY_MS = 200;

export interface FaultResult {
  planned: PlannedFault;
  startedAt: number;
  /** When the system answered normally again; undefined if it never did within RECOVERY_LIMIT_MS. */
  recoveredAt?: number;
  /** What was done, as the report prints it. */
  detail: string;
  /** A frozen process: ms from the freeze to the start of the last request nginx sent it while frozen. */
  lastRequestAfterMs?: number;
  /** A frozen process: requests nginx sent it while it was frozen. */
  requestsWhileFrozen?: number;
  error?: string;
}

/** A frozen process's address and the time it was frozen, read against the access log once it recovered. */
interface Frozen {
  address: string;
  from: number;
  to: number;
}

/** The two builds a remote's redeploys and rollbacks switch between. */
export interface RemoteBuilds {
  remote: RemoteName;
  /** Build folders (a remote's dist) and their ids. */
  builds: { dir: string; id: string }[];
}

async function answers(url: string, check: (body: string) => boolean = () => true): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    const body = await response.text();
    return response.status === 200 && check(body);
  } catch {
    return false;
  }
}

/**
 * Every API process ready on its own port, and the public origin answering the API's readiness
 * (as many times in a row as there are processes, so nginx's round robin meets each) and serving
 * each remote's current build.
 */
export async function systemAnswers(topology: Topology, expectedBuilds: Map<RemoteName, string>): Promise<boolean> {
  const direct = await Promise.all(
    topology.apis.map((api) => answers(`http://127.0.0.1:${api.port}/api/health/ready`)),
  );
  if (direct.includes(false)) return false;
  for (let attempt = 0; attempt < topology.apis.length; attempt++)
    if (!(await answers(`${topology.origin}/api/health/ready`))) return false;
  for (const remote of REMOTE_NAMES) {
    const expected = expectedBuilds.get(remote);
    const ok = await answers(
      `${topology.origin}/remotes/${remote}/builds/latest.json`,
      (body) => expected === undefined || (JSON.parse(body) as { id?: string }).id === expected,
    );
    if (!ok) return false;
  }
  return true;
}

async function waitForRecovery(
  topology: Topology,
  expectedBuilds: Map<RemoteName, string>,
): Promise<number | undefined> {
  const deadline = Date.now() + RECOVERY_LIMIT_MS;
  while (Date.now() < deadline) {
    if (await systemAnswers(topology, expectedBuilds)) return Date.now();
    await delay(PROBE_EVERY_MS);
  }
  return undefined;
}

/** `npm run <command> -w <remote's package> -- <args>`, its output given back; fails on a non-zero exit. */
function npmRun(command: string, remote: RemoteName, args: string[]): Promise<string> {
  const argv = ['run', command, '-w', REMOTES[remote].packageDir, '--', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', argv, { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm ${argv.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/** The requests nginx sent to `address` that started within [from, to). */
function requestsTo(topology: Topology, address: string, from: number, to: number): number[] {
  return readAccessLog(topology.nginx)
    .filter((line) => line.upstreams.includes(address) && line.startedAt >= from && line.startedAt < to)
    .map((line) => line.startedAt)
    .sort((a, b) => a - b);
}

export class FaultMaker {
  constructor(
    private readonly topology: Topology,
    private readonly redeployed: RemoteBuilds,
    /** Each remote's current build id, kept up to date as faults change them. */
    readonly currentBuilds: Map<RemoteName, string>,
  ) {}

  /** Makes the fault, waits until the system answers normally again, and says what happened. */
  async make(planned: PlannedFault): Promise<FaultResult> {
    const startedAt = Date.now();
    const result: FaultResult = { planned, startedAt, detail: describeFault(planned) };
    try {
      const frozen = await this.inject(planned.kind, planned.target);
      result.recoveredAt = await waitForRecovery(this.topology, this.currentBuilds);
      // nginx logs a request when it ends: those sent to the frozen process end once it is back.
      if (frozen) {
        const sent = requestsTo(this.topology, frozen.address, frozen.from, frozen.to);
        result.requestsWhileFrozen = sent.length;
        result.lastRequestAfterMs = sent.length > 0 ? (sent.at(-1) as number) - frozen.from : 0;
      }
    } catch (error) {
      result.error = (error as Error).message;
    }
    return result;
  }

  private async inject(kind: FaultKind, target: number | string | undefined): Promise<Frozen | void> {
    switch (kind) {
      case 'postgres-restart-fast':
      case 'postgres-restart-immediate':
        await this.topology.database.pause(kind === 'postgres-restart-fast' ? 'fast' : 'immediate');
        await this.topology.database.resume();
        return;
      case 'api-kill':
        return this.kill(Number(target));
      case 'api-freeze':
        return this.freeze(Number(target));
      case 'remote-redeploy':
      case 'remote-rollback':
        return this.switchBuild(kind);
      case 'remote-down':
        return this.takeDown(String(target) as RemoteName);
    }
  }

  private async kill(index: number): Promise<void> {
    const api = this.topology.apis[index];
    if (!api) throw new Error(`no API process ${index + 1}`);
    process.kill(-api.pid, 'SIGKILL');
    await api.exited;
    await this.topology.restartApi(index);
  }

  private async freeze(index: number): Promise<Frozen> {
    const api = this.topology.apis[index];
    if (!api) throw new Error(`no API process ${index + 1}`);
    const frozenAt = Date.now();
    process.kill(-api.pid, 'SIGSTOP');
    try {
      await delay(FREEZE_MS);
    } finally {
      process.kill(-api.pid, 'SIGCONT');
    }
    return { address: `127.0.0.1:${api.port}`, from: frozenAt, to: Date.now() };
  }

  /** Publishes the redeployed remote's other build: with its deploy command, or its rollback command. */
  private async switchBuild(kind: 'remote-redeploy' | 'remote-rollback'): Promise<void> {
    const { remote, builds } = this.redeployed;
    const folder = this.topology.remoteFolder(remote);
    const current = readLatest(folder).id;
    const next = builds.find((build) => build.id !== current) ?? builds[0];
    if (!next) throw new Error(`no build of ${remote} to switch to`);
    if (kind === 'remote-redeploy') await deployRemote(remote, folder, next.dir);
    else await npmRun('rollback', remote, [folder, next.id]);
    this.currentBuilds.set(remote, next.id);
  }

  private async takeDown(remote: RemoteName): Promise<void> {
    const folder = this.topology.remoteFolder(remote);
    const aside = `${folder}.down`;
    renameSync(folder, aside);
    try {
      await delay(FREEZE_MS);
    } finally {
      if (existsSync(aside)) renameSync(aside, folder);
    }
  }
}
