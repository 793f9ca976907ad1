/**
 * Builds some test files need beyond the main one (a second build of the content remote, a new
 * remote's), made once per run and shared by every worker: the first worker that asks makes it,
 * the others wait for it. A build is a folder under `.e2e-tmp/builds/` (emptied by the global
 * setup), complete once its `.complete` file exists; taking its `.lock` folder (mkdir is atomic)
 * decides who makes it. Read them, never change them: copy a build before serving it from a
 * folder a test changes.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SUITE_TMP_DIR } from './test-env';

export const SHARED_BUILDS_DIR = join(SUITE_TMP_DIR, 'builds');
/** The longest a build may take on a busy machine before the waiting workers give up. */
const BUILD_TIMEOUT_MS = 240_000;
const POLL_MS = 200;

/**
 * The folder of the shared build `name`, made by `make(folder)` if no worker made it yet: `make`
 * writes the build into the folder it is given and resolves once it is complete.
 */
/**
 * Runs `work` while holding the run-wide lock `name`, waiting for another worker that holds it:
 * for builds of one package, which share its webpack cache folder.
 */
export async function exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = join(SHARED_BUILDS_DIR, `${name}.lock`);
  mkdirSync(SHARED_BUILDS_DIR, { recursive: true });
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} was held for more than ${BUILD_TIMEOUT_MS} ms`);
      await delay(POLL_MS);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function sharedBuild(
  name: string,
  make: (folder: string) => Promise<void>,
  /** Where the build's folder goes: SHARED_BUILDS_DIR, or OUTSIDE_TMP_DIR for a copy of the repository. */
  root = SHARED_BUILDS_DIR,
): Promise<string> {
  const folder = join(root, name);
  const complete = join(folder, '.complete');
  const failed = join(folder, '.failed');
  mkdirSync(SHARED_BUILDS_DIR, { recursive: true });
  let mine = false;
  try {
    mkdirSync(join(SHARED_BUILDS_DIR, `${name}.lock`));
    mine = true;
  } catch {
    // Another worker makes it.
  }
  if (mine) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    try {
      await make(folder);
      writeFileSync(complete, new Date().toISOString());
    } catch (error) {
      writeFileSync(failed, String((error as Error).message ?? error));
      throw error;
    }
    return folder;
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!existsSync(complete)) {
    if (existsSync(failed)) throw new Error(`the shared build ${name} failed in another worker (${failed})`);
    if (Date.now() > deadline)
      throw new Error(`the shared build ${name} was not complete within ${BUILD_TIMEOUT_MS} ms`);
    await delay(POLL_MS);
  }
  return folder;
}
