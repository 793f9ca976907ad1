/**
 * One owner at a time for a folder: a lock file naming its owner, as PostgreSQL's `postmaster.pid`.
 * Created with `link`, so it appears whole. Stale once its owner is known gone (its process, on
 * this machine; elsewhere, its heartbeat); removed only under a recovery guard, and only while it
 * is still the stale one, so two recoverers cannot both win.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Lets a process on another machine tell the owner is alive. */
export const HEARTBEAT_MS = 5_000;
/** A lock whose owner cannot be checked directly is stale once it has not been touched this long. */
export const STALE_AFTER_MS = 20_000;
const MAX_ATTEMPTS = 5;
/** A guard this old was left by a recoverer that died. */
const RECOVERY_STALE_MS = 10_000;

export interface LockOwner {
  pid: number;
  hostname: string;
  /** Equal to ours: the pid can be checked. */
  bootId: string | null;
  pidNamespace: string | null;
  /** Clock ticks since boot, to detect a reused pid. */
  processStart: string | null;
  since: string;
  token: string;
  /** A command: "deploy", "canary promote"… */
  purpose?: string;
}

export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly owner: LockOwner,
    message = `${folder} is locked by process ${owner.pid} on ${owner.hostname}` +
      `${owner.purpose ? ` (${owner.purpose})` : ''} since ${owner.since}`,
  ) {
    super(message);
    this.name = 'FolderLockedError';
  }
}

/** Removed, or taken over by a process that thought us dead. */
export class FolderLockLostError extends Error {
  constructor(
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(
      `the lock ${path} was ${
        owner
          ? `taken over by process ${owner.pid} on ${owner.hostname}${owner.purpose ? ` (${owner.purpose})` : ''} since ${owner.since}`
          : 'removed'
      } while this process held it`,
    );
    this.name = 'FolderLockLostError';
  }
}

export interface FolderLock {
  readonly path: string;
  /** Throws FolderLockLostError once the file is not ours; call it before each write the lock guards. */
  verify(): Promise<void>;
  release(): Promise<void>;
  /** For a process 'exit' handler. */
  releaseSync(): void;
}

export interface FolderLockOptions {
  file: string;
  /** Recorded, so a refused process can be told. */
  purpose?: string;
  /** False: a missing folder is an error. */
  create?: boolean;
  lockedError?: (folder: string, owner: LockOwner) => Error;
  onLost?: (error: Error) => void;
  onWait?: (owner: LockOwner) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True once the owner touches the file again, false once untouched `staleAfterMs` or replaced. */
async function touchedWithin(path: string, owner: LockOwner, touchedAt: Date, staleAfterMs: number): Promise<boolean> {
  const deadline = touchedAt.getTime() + staleAfterMs;
  while (Date.now() <= deadline) {
    await sleep(Math.min(1_000, Math.max(50, deadline - Date.now() + 1)));
    const held = await readHeld(path);
    if (held.kind !== 'owner' || held.owner.token !== owner.token) return false;
    if (held.touchedAt.getTime() !== touchedAt.getTime()) return true;
  }
  return false;
}

function readOptional(read: () => string): string | null {
  try {
    return read().trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
export function processStartTime(pid: number): string | null {
  const stat = readOptional(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

function currentOwner(purpose?: string): LockOwner {
  return {
    pid: process.pid,
    hostname: hostname(),
    bootId: readOptional(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: readOptional(() => readlinkSync('/proc/self/ns/pid')),
    processStart: processStartTime(process.pid),
    since: new Date().toISOString(),
    token: randomBytes(12).toString('hex'),
    ...(purpose === undefined ? {} : { purpose }),
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether we can see the owner's process: same kernel boot and the same pid namespace. */
function canCheckProcess(owner: LockOwner, self: LockOwner): boolean {
  return owner.bootId !== null && owner.bootId === self.bootId && owner.pidNamespace === self.pidNamespace;
}

/** 'unknown': it runs elsewhere and touched the file recently. */
export function ownerState(
  owner: LockOwner,
  touchedAt: Date,
  now: Date = new Date(),
  self: LockOwner = currentOwner(),
): 'stale' | 'alive' | 'unknown' {
  if (canCheckProcess(owner, self)) {
    if (!isRunning(owner.pid)) return 'stale';
    const start = processStartTime(owner.pid);
    return owner.processStart !== null && start !== null && start !== owner.processStart ? 'stale' : 'alive';
  }
  // The same machine after a reboot: every process of the old boot is gone.
  if (owner.hostname === self.hostname && owner.bootId !== null && self.bootId !== null && owner.bootId !== self.bootId)
    return 'stale';
  return now.getTime() - touchedAt.getTime() > STALE_AFTER_MS ? 'stale' : 'unknown';
}

type Held =
  { kind: 'gone' } | { kind: 'owner'; owner: LockOwner; touchedAt: Date } | { kind: 'unreadable'; touchedAt: Date };

async function readHeld(path: string): Promise<Held> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    try {
      return { kind: 'owner', owner: JSON.parse(text) as LockOwner, touchedAt: info.mtime };
    } catch {
      return { kind: 'unreadable', touchedAt: info.mtime };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
}

async function tokenOf(path: string): Promise<string | undefined> {
  const held = await readHeld(path);
  return held.kind === 'owner' ? held.owner.token : undefined;
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  const draft = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, content);
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // A file system without hard links: exclusive create, not atomic with its content.
    try {
      await writeFile(path, content, { flag: 'wx' });
      return true;
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** Removes the stale lock under the recovery guard; when another holds the guard, waits and lets the caller look again. */
async function removeStale(path: string, staleToken: string | undefined): Promise<void> {
  const guard = `${path}.recovering`;
  if (!(await createExclusive(guard, `${process.pid}\n`))) {
    for (;;) {
      const info = await stat(guard).catch(() => undefined);
      if (!info) return;
      if (Date.now() - info.mtimeMs > RECOVERY_STALE_MS) {
        await unlink(guard).catch(() => undefined);
        return;
      }
      await sleep(25);
    }
  }
  try {
    // Nobody else removes it while we hold the guard, and nobody creates a lock while it exists.
    const held = await readHeld(path);
    const stillStale = held.kind === 'owner' ? held.owner.token === staleToken : held.kind === 'unreadable';
    if (stillStale) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

function startHeartbeat(path: string, token: string, onLost: ((error: Error) => void) | undefined): () => void {
  let lost = false;
  const timer = setInterval(() => {
    if (lost) return;
    tokenOf(path)
      .then(async (current) => {
        if (current !== token) throw new Error(`the lock file ${path} was removed or taken over by another process`);
        const now = new Date();
        await utimes(path, now, now);
      })
      .catch((error: unknown) => {
        lost = true;
        onLost?.(error instanceof Error ? error : new Error(String(error)));
      });
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Takes the folder's lock, or throws (FolderLockedError by default) naming the process that holds it. */
export async function lockFolder(folder: string, options: FolderLockOptions): Promise<FolderLock> {
  if (options.create !== false) await mkdir(folder, { recursive: true });
  else await stat(folder);
  const path = join(folder, options.file);
  const me = currentOwner(options.purpose);
  const locked = (owner: LockOwner) => options.lockedError?.(folder, owner) ?? new FolderLockedError(folder, owner);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (await createExclusive(path, `${JSON.stringify(me, null, 2)}\n`)) {
      const stopHeartbeat = startHeartbeat(path, me.token, options.onLost);
      return {
        path,
        async verify() {
          const held = await readHeld(path);
          if (held.kind === 'owner' && held.owner.token === me.token) return;
          throw new FolderLockLostError(path, held.kind === 'owner' ? held.owner : undefined);
        },
        async release() {
          stopHeartbeat();
          if ((await tokenOf(path).catch(() => undefined)) === me.token) await unlink(path).catch(() => undefined);
        },
        releaseSync() {
          stopHeartbeat();
          try {
            if ((JSON.parse(readFileSync(path, 'utf8')) as LockOwner).token === me.token) unlinkSync(path);
          } catch {
            // gone already, or not ours
          }
        },
      };
    }
    const held = await readHeld(path);
    if (held.kind === 'gone') continue;
    if (held.kind === 'owner') {
      const state = ownerState(held.owner, held.touchedAt, new Date(), me);
      if (state === 'alive') throw locked(held.owner);
      if (state === 'unknown') {
        // An owner we cannot see (another container or machine): alive if it keeps touching the file.
        options.onWait?.(held.owner);
        if (await touchedWithin(path, held.owner, held.touchedAt, STALE_AFTER_MS)) throw locked(held.owner);
        continue;
      }
    } else if (Date.now() - held.touchedAt.getTime() <= STALE_AFTER_MS) {
      // Being written by a file system without hard links, or damaged: wait for it to settle.
      await sleep(200);
      continue;
    }
    await removeStale(path, held.kind === 'owner' ? held.owner.token : undefined);
  }
  throw new Error(`Could not take the lock ${path}: other processes keep taking it.`);
}
