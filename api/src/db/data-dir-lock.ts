/**
 * One writer per PGlite data folder. PGlite is a whole PostgreSQL inside the process: two
 * processes on one folder each see only their own writes (a gift redeemed through both got two
 * vouchers) and the one that stops last overwrites the other's. So the API holds a lock file in
 * the folder while it runs, as PostgreSQL does with `postmaster.pid`: the folder lock every
 * server of ours shares (server/folder-lock), which names its owner, recovers the lock of an owner
 * known to be gone, and lets exactly one of several processes recovering it at once take it.
 */
import { lockFolder, type FolderLock, type LockOwner } from 'server/folder-lock';

export { STALE_AFTER_MS, type LockOwner } from 'server/folder-lock';

export const LOCK_FILE = 'api.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The PGlite data folder ${dataDir} is in use by process ${owner.pid} on ${owner.hostname} (since ${owner.since}). ` +
        'Only one API process may use a PGlite data folder: stop that process first, or run several API processes on PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

export type DataDirLock = FolderLock;

export interface LockOptions {
  /** Told when the lock file was removed or taken by someone else while we held it. */
  onLost?: (error: Error) => void;
  /** Told when we wait to see whether an owner we cannot check directly is still alive. */
  onWait?: (owner: LockOwner) => void;
}

/** Takes the data folder's lock, or throws DataDirLockedError naming the process that holds it. */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  return lockFolder(dataDir, {
    file: LOCK_FILE,
    purpose: 'the API',
    lockedError: (folder, owner) => new DataDirLockedError(folder, owner),
    ...options,
  });
}
