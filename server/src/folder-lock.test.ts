/**
 * The folder lock against real folders and real processes. Its recovery (an owner gone, a pid
 * reused, another machine's owner gone quiet, several recoverers at once) is tested through the
 * API's data-folder lock, which is this lock with a file name (api/src/db/data-dir-lock.test.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderLockedError, FolderLockLostError, lockFolder, type LockOwner } from './folder-lock';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folder-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const readOwner = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as LockOwner;

describe('lockFolder', () => {
  it('writes the named lock file with its owner and what for, and removes it on release', async () => {
    const lock = await lockFolder(dir, { file: '.deploy.lock', purpose: 'deploy' });
    expect(lock.path).toBe(join(dir, '.deploy.lock'));
    expect(readOwner('.deploy.lock')).toMatchObject({ pid: process.pid, hostname: hostname(), purpose: 'deploy' });
    await lock.release();
    expect(existsSync(join(dir, '.deploy.lock'))).toBe(false);
  });

  it('verifies the lock is still ours: not once another owner took it over or it was removed', async () => {
    const lock = await lockFolder(dir, { file: 'x.lock', purpose: 'deploy' });
    await lock.verify();
    writeFileSync(join(dir, 'x.lock'), JSON.stringify({ ...readOwner('x.lock'), token: 'other', purpose: 'rollback' }));
    await expect(lock.verify()).rejects.toThrow(FolderLockLostError);
    await expect(lock.verify()).rejects.toThrow(
      `the lock ${join(dir, 'x.lock')} was taken over by process ${process.pid} on ${hostname()} (rollback) since `,
    );
    // Released, it leaves the new owner's file alone.
    await lock.release();
    expect(readOwner('x.lock').token).toBe('other');
    rmSync(join(dir, 'x.lock'));
    await expect(lock.verify()).rejects.toThrow('was removed while this process held it');
  });

  it('refuses a second owner while held, naming the holder and what it holds the folder for', async () => {
    const lock = await lockFolder(dir, { file: 'x.lock', purpose: 'canary promote' });
    try {
      const refused = lockFolder(dir, { file: 'x.lock', purpose: 'deploy' });
      await expect(refused).rejects.toThrow(FolderLockedError);
      await expect(refused).rejects.toThrow(
        `${dir} is locked by process ${process.pid} on ${hostname()} (canary promote) since `,
      );
      // The caller's own words, when it gives them.
      await expect(
        lockFolder(dir, { file: 'x.lock', lockedError: (folder, owner) => new Error(`${folder}: ${owner.purpose}`) }),
      ).rejects.toThrow(`${dir}: canary promote`);
      // Another file name is another lock.
      await (await lockFolder(dir, { file: 'y.lock' })).release();
    } finally {
      await lock.release();
    }
  });

  it('takes over the lock of a process killed while it held it', async () => {
    const script = `
      const { lockFolder } = require(${JSON.stringify(join(__dirname, 'folder-lock.ts'))});
      lockFolder(process.argv[1], { file: 'x.lock', purpose: 'held' }).then(() => console.log('locked'));
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => chunk.includes('locked') && resolve()),
    );
    await expect(lockFolder(dir, { file: 'x.lock' })).rejects.toThrow(`process ${child.pid} on ${hostname()} (held)`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const lock = await lockFolder(dir, { file: 'x.lock', purpose: 'next' });
    expect(readOwner('x.lock')).toMatchObject({ pid: process.pid, purpose: 'next' });
    await lock.release();
  });

  it('with create: false, refuses a missing folder and creates nothing', async () => {
    const missing = join(dir, 'missing');
    await expect(lockFolder(missing, { file: 'x.lock', create: false })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(missing)).toBe(false);
  });
});
