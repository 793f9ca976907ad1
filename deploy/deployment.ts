/**
 * A remote's deployment as the deploy commands keep it: its state, `builds/latest.json`
 * (shared/deployment: the stable build, the one before it, an optional canary), and the lock that
 * lets one command at a time change it.
 *
 * - Every write of `builds/latest.json` goes through `writeDeployment`: it reads the file, sets
 *   the fields it is given over those it holds (fields it does not know are kept), and writes the
 *   whole file beside the old one and renames it over, so a reader sees the old state or the new
 *   one, never a canary without its stable build.
 * - Every command that writes into a deployed folder (deploy, rollback, the canary commands, the
 *   release run) holds `<target>/.deploy.lock` (server/folder-lock) for the whole run: a second
 *   run is refused at once, naming the holder; the lock of a run that died is taken over. The
 *   run holding it first removes the temporary files (`.*.deploy-tmp`) a run that died left.
 *   The lock file and the temporary files start with a dot: the remotes' servers and nginx never
 *   serve such a path.
 * - A run checks the lock is still its own before each file it puts in place or removes
 *   (`checkDeploymentLock`): when another run took it over (it thought this one dead: a machine
 *   that stalled past the lock's staleness), this one stops with DeploymentLockLostError instead
 *   of writing over the other's files.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { FolderLockLostError, lockFolder, type FolderLock, type LockOwner } from 'server/folder-lock';
import { DEPLOYMENT_FILE, readDeploymentState, type CanaryState, type DeploymentState } from 'shared/deployment';

/** The lock file every command that changes a deployment holds, in the deployed folder. */
export const DEPLOY_LOCK_FILE = '.deploy.lock';
/** The name every temporary file of a deploy command has: `.<random>.deploy-tmp`, beside the file it becomes. */
export const TEMPORARY_SUFFIX = '.deploy-tmp';

/** A temporary name beside `path`, starting with a dot so that it is never served. */
export function temporaryBeside(path: string): string {
  return join(dirname(path), `.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`);
}

/**
 * Writes `content` (text, or a copy of the file `copyOf`) to a temporary name beside `to`, then
 * renames it over the old file, so a reader gets the old file or the new one, never half of one.
 * A copy is a new file with a new modification time even when its bytes are an old build's (a
 * rollback), so validators derived from it change with it; where the file system can, it shares
 * the source's blocks (copy-on-write) instead of duplicating them.
 */
export async function writeAtomically(to: string, content: string | { copyOf: string }): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const temporary = temporaryBeside(to);
  try {
    if (typeof content === 'string') await writeFile(temporary, content);
    else await copyFile(content.copyOf, temporary, constants.COPYFILE_FICLONE);
    await checkDeploymentLock(to);
    await rename(temporary, to);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The deployment in `target` (its `builds/latest.json`; `file`: the host's `_app/builds/latest.json`),
 * or undefined when it names no build.
 */
export async function readDeployment(target: string, file = DEPLOYMENT_FILE): Promise<DeploymentState | undefined> {
  try {
    return readDeploymentState(JSON.parse(await readFile(join(target, file), 'utf8')));
  } catch {
    return undefined;
  }
}

/** The fields a write changes: a value sets it, `null` removes it, a field left out is kept. */
export interface DeploymentChanges {
  id?: string;
  timestamp?: number;
  previous?: string | null;
  canary?: CanaryState | null;
  revoked?: string[] | null;
  /** The code the build's server half is compiled from (the host's), which its servers compare with theirs. */
  codeVersion?: string | null;
}

/**
 * Writes `builds/latest.json` whole, in one rename: `changes` over what it holds (fields this
 * tool does not know included). Refuses a state that names no stable build. Gives the state as
 * written, and whether the file changed.
 */
export async function writeDeployment(
  target: string,
  changes: DeploymentChanges,
  file = DEPLOYMENT_FILE,
): Promise<{ state: DeploymentState; changed: boolean }> {
  const path = join(target, file);
  let before = '';
  let raw: Record<string, unknown> = {};
  try {
    before = await readFile(path, 'utf8');
    const parsed = JSON.parse(before) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      raw = parsed as Record<string, unknown>;
  } catch {
    // No deployment yet, or an unreadable one: written afresh.
  }
  const {
    id: oldId,
    timestamp: oldTimestamp,
    previous: oldPrevious,
    canary: oldCanary,
    revoked: oldRevoked,
    codeVersion: oldCodeVersion,
    ...others
  } = raw;
  const pick = <T>(change: T | null | undefined, old: unknown): unknown =>
    change === null ? undefined : change === undefined ? old : change;
  const next: Record<string, unknown> = {
    id: pick(changes.id, oldId),
    timestamp: pick(changes.timestamp, oldTimestamp),
    previous: pick(changes.previous, oldPrevious),
    canary: pick(changes.canary, oldCanary),
    revoked: pick(changes.revoked, oldRevoked),
    codeVersion: pick(changes.codeVersion, oldCodeVersion),
    ...others,
  };
  for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
  if (next.previous === next.id) delete next.previous;
  const state = readDeploymentState(next);
  if (!state) throw new Error(`${path} would name no stable build`);
  const text = JSON.stringify(next);
  if (text === before) return { state, changed: false };
  await writeAtomically(path, text);
  return { state, changed: true };
}

/** Another run holds the deployment. */
export class DeploymentLockedError extends Error {
  constructor(
    readonly target: string,
    readonly owner: LockOwner,
  ) {
    super(
      `${target} is being changed by another run: ${owner.purpose ?? 'a deploy command'} (process ${owner.pid} on ` +
        `${owner.hostname}, since ${owner.since}). One change at a time: wait for it to finish and run this again.`,
    );
    this.name = 'DeploymentLockedError';
  }
}

/** The run's lock was taken over by another run, or removed: it stopped before its next write. */
export class DeploymentLockLostError extends Error {
  constructor(
    readonly target: string,
    cause: FolderLockLostError,
  ) {
    super(
      `stopped before writing more into ${target}: ${cause.message}. Another run took the deployment, taking this ` +
        'one for dead; what this run had written stays. Once that run is done, check the deployment ' +
        '(npm run rollback -w <remote> -- <target> --list) and run this command again if it is still needed.',
    );
    this.name = 'DeploymentLockLostError';
  }
}

/** The deployments this async call chain holds, by folder, with their locks. */
const held = new AsyncLocalStorage<ReadonlyMap<string, FolderLock>>();

/** Whether the current call chain holds the lock of `target` (inside `withDeploymentLock`). */
export function holdsDeploymentLock(target: string): boolean {
  return held.getStore()?.has(resolve(target)) ?? false;
}

/**
 * Throws DeploymentLockLostError when `path` is inside a deployment this call chain holds and
 * its lock is no longer ours: called before every file a run puts in place or removes.
 */
export async function checkDeploymentLock(path: string): Promise<void> {
  const file = resolve(path);
  for (const [folder, lock] of held.getStore() ?? []) {
    if (file !== folder && !file.startsWith(`${folder}${sep}`)) continue;
    try {
      await lock.verify();
    } catch (error) {
      throw error instanceof FolderLockLostError ? new DeploymentLockLostError(folder, error) : error;
    }
  }
}

export interface LockOptions {
  /** Creates the target when missing (a first deploy); otherwise a missing target is refused. */
  create?: boolean;
  /** Told when the lock file was removed or taken over while the run held it. */
  onLost?: (error: Error) => void;
}

/**
 * Runs `fn` holding the deployment's lock, `command` recorded as what for. Inside it, every
 * function of the deploy commands on the same target runs without taking the lock again: a
 * release run holds it across its whole run and calls them. Throws DeploymentLockedError, at
 * once, when another run holds it.
 */
export async function withDeploymentLock<T>(
  target: string,
  command: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const folder = resolve(target);
  const holding = held.getStore() ?? new Map<string, FolderLock>();
  if (holding.has(folder)) return fn();
  if (options.create !== true && !existsSync(folder)) throw new Error(`${folder} does not exist`);
  const lock = await lockFolder(folder, {
    file: DEPLOY_LOCK_FILE,
    purpose: command,
    create: options.create === true,
    lockedError: (_folder, owner) => new DeploymentLockedError(folder, owner),
    onLost: options.onLost,
  });
  try {
    await removeLeftovers(folder);
    return await held.run(new Map([...holding, [folder, lock]]), fn);
  } finally {
    await lock.release();
  }
}

/**
 * Removes the temporary files (`.*.deploy-tmp`) a run that died left in `target`: only the run
 * holding the lock writes them, so none of them belongs to a live run. Gives their paths.
 */
export async function removeLeftovers(target: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(target, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.startsWith('.') && entry.name.endsWith(TEMPORARY_SUFFIX)) {
        await rm(join(target, path), { force: true });
        removed.push(path);
      }
    }
  };
  await walk('');
  return removed;
}
