/**
 * The API's PGlite data folder, made once per run and copied for each worker. A first start on an
 * empty folder runs PostgreSQL's initdb inside PGlite's WebAssembly: of the 5.8 s of CPU the API
 * took to be ready, 3.1 s, and every worker with servers paid it. The global setup
 * makes one initialised cluster (`makeApiDataTemplate`), with the API's own PGlite (resolved from
 * api/, the version that then opens it); a worker's API starts on a copy of it (`prepareApiData`).
 * The copy holds no table of the API's: its start still does all a first start does (migrations,
 * the catalogue's prizes), only initdb is done already. A file that wants an API on a database of
 * its own names a folder not made yet (`freshApiDataDir`), which starts as a copy too: on
 * `memory://` the API would run initdb again, 4.4 s of CPU to ready where the copy takes 2.4 s.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { cp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT_DIR, SUITE_TMP_DIR, TMP_DIR } from './test-env';

/** The initialised, empty cluster every worker's API data folder starts as. */
export const API_DATA_TEMPLATE = join(SUITE_TMP_DIR, 'api-data-template');

/** Run in api/: opens PGlite on the folder named by its argument (initdb) and closes it again. */
const INIT_SCRIPT =
  "require('@electric-sql/pglite').PGlite.create({ dataDir: process.argv[1] }).then((pg) => pg.close())";

/**
 * Makes API_DATA_TEMPLATE: initialised in a folder of its own, then renamed into place, so the
 * template is whole or absent.
 */
export async function makeApiDataTemplate(): Promise<void> {
  const making = `${API_DATA_TEMPLATE}.making`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(SUITE_TMP_DIR, { recursive: true });
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    let text = '';
    const child = spawn(process.execPath, ['-e', INIT_SCRIPT, making], {
      cwd: join(ROOT_DIR, 'api'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, output: text }));
  });
  if (code !== 0) throw new Error(`making the API's PGlite data folder failed (exit ${code}):\n${output}`);
  renameSync(making, API_DATA_TEMPLATE);
}

/**
 * Gives the API the data folder `dataDir` as a copy of the template when the folder does not
 * exist yet; an existing folder (the API restarted in the same worker) keeps its data. Without a
 * template (a run whose global setup did not make one) the API makes the folder itself. The copy
 * (about 1,000 files, 40 MB) is asynchronous: the worker's other servers start meanwhile (a
 * synchronous one held them, and their health checks, for seconds on a busy machine). It is made
 * beside the folder and renamed into place, so the folder is whole or absent.
 */
export async function prepareApiData(dataDir: string): Promise<void> {
  if (existsSync(dataDir) || !existsSync(API_DATA_TEMPLATE)) return;
  const copying = `${dataDir}.copying`;
  await rm(copying, { recursive: true, force: true });
  await cp(API_DATA_TEMPLATE, copying, { recursive: true });
  await rename(copying, dataDir);
}

let freshDirs = 0;

/**
 * A data folder of this worker's that no API has used yet (`label` names its user): the API
 * started on it (servers.ts) finds an empty database, as on `memory://`, made from the template.
 * The process id keeps apart the folders of a worker started again after a failed test.
 */
export function freshApiDataDir(label: string): string {
  freshDirs += 1;
  return join(TMP_DIR, `api-data-${label}-${process.pid}-${freshDirs}`);
}
