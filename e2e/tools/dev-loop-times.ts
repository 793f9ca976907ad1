/**
 * `npm run dev-loop-times -w e2e [-- --rounds N] [-- --at <commit>]`: how long an edit of a gifts component takes to
 * show under `npm run dev`, on the host's page and in the gifts remote's standalone shell, each
 * opened at localhost and at 127.0.0.1. Runs `npm run dev` in a throwaway copy of the repository
 * on ports of E2E_BASE_PORT's block, edits the game's heading N times (3 by default) and prints,
 * per page, each edit's time to the new heading and the console lines about hot updates and
 * webpack-dev-server's Host/Origin check. A page that never shows an edit counts as the wait's
 * bound, marked "not shown". `--at <commit>` measures the loop as that commit had it: the copy's
 * files outside e2e/ are taken from the commit (those it lacks removed), for a before and after.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'testbed/chromium';
import { startDevServers, type DevServers } from '../support/dev-servers';
import { copyRepository } from '../support/repo-copy';
import { LOG_DIR, ROOT_DIR } from '../support/test-env';

const GIFTS_COMPONENT = join('remote-gifts', 'src', 'features', 'game', 'components', 'game-screen.tsx');
const START_TIMEOUT_MS = 240_000;
/** How long an edit may take to show before it counts as not shown. */
const SHOW_TIMEOUT_MS = 20_000;
/** What the host page and the shells say once they listen to a development server. */
const LISTENING =
  /\[dev\] gifts: watching its development server|\[webpack-dev-server\] (Hot Module Replacement|Live Reloading) enabled/;
export const HOT_UPDATE_ERRORS = /Invalid Host\/Origin header|webpackHotUpdate\w* is not a function/;

interface Measured {
  name: string;
  page: Page;
  console: string[];
  times: Array<number | 'not shown'>;
}

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** Resolves once `page` logs a line matching LISTENING, or after `timeoutMs`. */
function listening(measured: Measured, timeoutMs: number): Promise<void> {
  const logged = measured.console.length;
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const poll = setInterval(() => {
      if (measured.console.slice(logged).some((line) => LISTENING.test(line))) done();
    }, 50);
    function done() {
      clearTimeout(timer);
      clearInterval(poll);
      resolve();
    }
  });
}

async function openPages(servers: DevServers): Promise<Measured[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  const measured: Measured[] = [];
  for (const hostname of ['localhost', '127.0.0.1']) {
    const api = encodeURIComponent(servers.origin('api', hostname));
    const pages: Array<[string, string]> = [
      [`host page at ${hostname}`, `${servers.origin('host', hostname)}/game`],
      [`gifts standalone shell at ${hostname}`, `${servers.origin('gifts', hostname)}/game?api=${api}`],
    ];
    for (const [name, url] of pages) {
      const page = await (await browser.newContext()).newPage();
      const entry: Measured = { name, page, console: [], times: [] };
      page.on('console', (message) => entry.console.push(message.text()));
      page.on('pageerror', (error) => entry.console.push(`${error.name}: ${error.message}`));
      const listens = listening(entry, SHOW_TIMEOUT_MS);
      await page.goto(url);
      await page.locator('main h1').first().waitFor();
      await listens;
      measured.push(entry);
    }
  }
  return measured;
}

async function timeToShow(entry: Measured, title: string, start: number): Promise<number | 'not shown'> {
  try {
    await heading(entry.page, title).waitFor({ timeout: SHOW_TIMEOUT_MS });
    return Date.now() - start;
  } catch {
    return 'not shown';
  }
}

/** The copy's files outside e2e/ as `commit` had them. */
function checkOutAt(root: string, commit: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT_DIR, encoding: 'utf8', maxBuffer: 1 << 26 });
  const changed = git('diff', '--name-status', '--no-renames', commit, '--', '.', ':!e2e').trim().split('\n');
  for (const line of changed.filter(Boolean)) {
    const [status, file] = line.split('\t') as [string, string];
    if (status === 'A') rmSync(join(root, file), { force: true });
    else writeFileSync(join(root, file), git('show', `${commit}:${file}`));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, at: { type: 'string' } } });
  const rounds = Number(values.rounds);
  const root = mkdtempSync(join(tmpdir(), 'gift-box-dev-loop-times-'));
  mkdirSync(LOG_DIR, { recursive: true });
  let servers: DevServers | undefined;
  try {
    copyRepository(root);
    if (values.at) checkOutAt(root, values.at);
    servers = await startDevServers(root, join(LOG_DIR, 'dev-loop-times.log'), START_TIMEOUT_MS);
    const pages = await openPages(servers);
    const file = join(root, GIFTS_COMPONENT);
    // The game's heading as its team wrote it, whatever it says.
    let title = (await pages[0]!.page.locator('main h1').first().innerText()).trim();
    const first = title;
    for (let round = 1; round <= rounds; round += 1) {
      const next = `${first} (edit ${round})`;
      const listens = pages.map((entry) => listening(entry, SHOW_TIMEOUT_MS));
      const start = Date.now();
      writeFileSync(file, readFileSync(file, 'utf8').replace(`${title}\n      </h1>`, `${next}\n      </h1>`));
      title = next;
      const times = await Promise.all(pages.map((entry) => timeToShow(entry, next, start)));
      times.forEach((time, index) => pages[index]?.times.push(time));
      // A reloaded page listens again before the next edit (Fast Refresh keeps its socket).
      await Promise.all(listens);
    }
    for (const entry of pages) {
      const errors = entry.console.filter((line) => HOT_UPDATE_ERRORS.test(line));
      const times = entry.times.map((time) => (time === 'not shown' ? `not shown in ${SHOW_TIMEOUT_MS}` : time));
      console.log(`${entry.name}: ${times.join(', ')} ms; hot-update/Host errors in its console: ${errors.length}`);
      for (const line of new Set(errors)) console.log(`  ${line.slice(0, 160)}`);
    }
  } finally {
    await servers?.stop();
    rmSync(root, { recursive: true, force: true });
  }
  process.exit(0);
}

void main();
