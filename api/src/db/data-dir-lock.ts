/**
 * One writer per PGlite folder: two processes on one folder each see only their own writes (a
 * gift redeemed twice). The shared folder lock (server/folder-lock) names and recovers its owner.
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
  /** The lock file was removed or taken while held. */
  onLost?: (error: Error) => void;
  /** Waiting on an owner that cannot be checked directly. */
  onWait?: (owner: LockOwner) => void;
}

export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  return lockFolder(dataDir, {
    file: LOCK_FILE,
    purpose: 'the API',
    lockedError: (folder, owner) => new DataDirLockedError(folder, owner),
    ...options,
  });
}
