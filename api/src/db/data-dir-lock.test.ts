import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, LOCK_FILE, type LockOwner, lockDataDir, STALE_AFTER_MS } from './data-dir-lock';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'api-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lockPath = () => join(dir, LOCK_FILE);
const readOwner = () => JSON.parse(readFileSync(lockPath(), 'utf8')) as LockOwner;

/** The pid of a process that has exited (so the pid is free). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

function writeOwner(owner: Partial<LockOwner>, touchedAt?: Date): void {
  const base: LockOwner = {
    pid: 1,
    hostname: 'elsewhere',
    bootId: null,
    pidNamespace: null,
    processStart: null,
    since: '2030-01-01T00:00:00.000Z',
    token: 'old',
  };
  writeFileSync(lockPath(), JSON.stringify({ ...base, ...owner }));
  if (touchedAt) utimesSync(lockPath(), touchedAt, touchedAt);
}

describe('lockDataDir', () => {
  it('writes a lock naming this process, and removes it on release', async () => {
    const lock = await lockDataDir(dir);
    expect(readOwner()).toMatchObject({ pid: process.pid, hostname: hostname() });
    await lock.release();
    expect(existsSync(lockPath())).toBe(false);
  });

  it('removes the file synchronously too (a process exit handler), only while it is ours', async () => {
    const lock = await lockDataDir(dir);
    lock.releaseSync();
    expect(existsSync(lockPath())).toBe(false);
    const next = await lockDataDir(dir);
    lock.releaseSync();
    expect(readOwner().pid).toBe(process.pid);
    await next.release();
  });

  it('refuses a second lock while the first is held, naming the folder and the holder', async () => {
    const lock = await lockDataDir(dir);
    try {
      const refused = lockDataDir(dir);
      await expect(refused).rejects.toThrow(DataDirLockedError);
      await expect(refused).rejects.toThrow(
        `The PGlite data folder ${dir} is in use by process ${process.pid} on ${hostname()}`,
      );
    } finally {
      await lock.release();
    }
    // Released: the next one may take it.
    await (await lockDataDir(dir)).release();
  });

  it('takes over a lock whose process is gone (killed) on this machine', async () => {
    const first = await lockDataDir(dir);
    const owner = readOwner();
    await first.release();
    writeOwner({ ...owner, pid: await deadPid(), token: 'killed' });
    const lock = await lockDataDir(dir);
    expect(readOwner().pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock whose process id now belongs to a younger process', async () => {
    const first = await lockDataDir(dir);
    const owner = readOwner();
    await first.release();
    // Our own pid, as a container restarted from the same image would see it, but an earlier start.
    writeOwner({ ...owner, processStart: '1', token: 'previous-life' });
    const lock = await lockDataDir(dir);
    expect(readOwner().token).not.toBe('previous-life');
    await lock.release();
  });

  it('takes over a lock from another machine or container once it has gone untouched too long', async () => {
    writeOwner({ token: 'remote' }, new Date(Date.now() - STALE_AFTER_MS - 5_000));
    const lock = await lockDataDir(dir);
    expect(readOwner().pid).toBe(process.pid);
    await lock.release();
  });

  it('refuses a lock from another machine or container that is still being touched', async () => {
    writeOwner({ token: 'remote', pid: 4242 }, new Date(Date.now() - STALE_AFTER_MS + 1_500));
    const waits: number[] = [];
    const heartbeat = setTimeout(() => utimesSync(lockPath(), new Date(), new Date()), 300);
    try {
      await expect(lockDataDir(dir, { onWait: (owner) => waits.push(owner.pid) })).rejects.toThrow(
        'is in use by process 4242 on elsewhere',
      );
    } finally {
      clearTimeout(heartbeat);
    }
    expect(waits).toEqual([4242]);
    expect(readOwner().token).toBe('remote');
  });

  it('takes over a lock left on this machine before a reboot', async () => {
    writeOwner({ hostname: hostname(), bootId: 'an-earlier-boot', token: 'before-reboot' });
    const lock = await lockDataDir(dir);
    expect(readOwner().pid).toBe(process.pid);
    await lock.release();
  });

  it('recovers a stale lock whose recovery was left half-way by a process that died', async () => {
    const first = await lockDataDir(dir);
    const owner = readOwner();
    await first.release();
    writeOwner({ ...owner, pid: await deadPid(), token: 'killed' });
    const guard = join(dir, `${LOCK_FILE}.recovering`);
    writeFileSync(guard, '4242\n');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(guard, longAgo, longAgo);
    const lock = await lockDataDir(dir);
    expect(readOwner().pid).toBe(process.pid);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets exactly one of several processes recovering the same stale lock at once take it, every time', async () => {
    const first = await lockDataDir(dir);
    const owner = readOwner();
    await first.release();
    const dead = await deadPid();
    // The race is between one recoverer removing the stale lock and another, a moment behind,
    // finding the lock the first has just taken: many rounds, so that it is met.
    for (let round = 0; round < 100; round += 1) {
      writeOwner({ ...owner, pid: dead, token: `killed-${round}` });
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => lockDataDir(dir)));
      const taken = results.filter((result) => result.status === 'fulfilled');
      expect(taken).toHaveLength(1);
      expect(
        results
          .filter((result) => result.status === 'rejected')
          .every((result) => (result as PromiseRejectedResult).reason instanceof DataDirLockedError),
      ).toBe(true);
      const lock = (taken[0] as PromiseFulfilledResult<{ path: string; release(): Promise<void> }>).value;
      // The winner's lock is in place, not moved aside by a loser.
      expect(readOwner().pid).toBe(process.pid);
      await lock.release();
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
