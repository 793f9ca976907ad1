/**
 * A deployment as the deploy commands keep it: `builds/latest.json`, always written whole in one
 * rename so a reader never sees a canary without its stable build, and the `.deploy.lock` that lets
 * one command at a time change it. A run whose lock was taken over stops before its next write
 * instead of writing over the other's files. Dot files are never served.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { FolderLockLostError, lockFolder, type FolderLock, type LockOwner } from 'server/folder-lock';
import { DEPLOYMENT_FILE, readDeploymentState, type CanaryState, type DeploymentState } from 'shared/deployment';

export const DEPLOY_LOCK_FILE = '.deploy.lock';
export const TEMPORARY_SUFFIX = '.deploy-tmp';

export function temporaryBeside(path: string): string {
  return join(dirname(path), `.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`);
}

/**
 * A reader gets the old file or the new one. A copy gets a new modification time, so validators
 * change with it; it shares the source's blocks where the file system can.
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

export async function readDeployment(target: string, file = DEPLOYMENT_FILE): Promise<DeploymentState | undefined> {
  try {
    return readDeploymentState(JSON.parse(await readFile(join(target, file), 'utf8')));
  } catch {
    return undefined;
  }
}

/** A value sets a field, `null` removes it, a field left out is kept. */
export interface DeploymentChanges {
  id?: string;
  timestamp?: number;
  previous?: string | null;
  canary?: CanaryState | null;
  revoked?: string[] | null;
  codeVersion?: string | null;
}

/** Unknown fields are kept; a state that names no stable build is refused. */
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

const held = new AsyncLocalStorage<ReadonlyMap<string, FolderLock>>();

export function holdsDeploymentLock(target: string): boolean {
  return held.getStore()?.has(resolve(target)) ?? false;
}

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
  create?: boolean;
  onLost?: (error: Error) => void;
}

/**
 * Inside it, the deploy commands on the same target run without taking the lock again: a release
 * run holds it across its whole run.
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

/** Only the run holding the lock writes them, so none belongs to a live run. */
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
