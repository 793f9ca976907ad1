/**
 * A rolling restart under load, as docs/operations.md ("Rolling restarts") tells an operator to
 * do it: nginx with the site file `npm run nginx-config` renders, in front of two host's servers
 * and two API processes on PostgreSQL. Visitors load pages and call the API without pause (from
 * Node and from a real browser page) while every process is restarted in turn; not one of their
 * requests may fail.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from '@playwright/test';
import { RESTART_PAUSE_SECONDS } from '../../deploy/nginx/render-config';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';
import { stopProcess, type RunningProcess } from 'testbed/process';

const PAGES = ['/', '/about', '/game', '/terms', '/privacy-policy'];
/** Visitors outside the browser, each asking one thing after another. */
const NODE_VISITORS = 4;

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let session: BrowserSession;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  topology = await sharedTopology({ hostCount: 2, apiCount: 2 });
  session = await openSession(browser, { baseURL: topology.origin });
});

test.afterAll(async () => {
  await session?.close();
});

/** What the visitors asked and what failed (a status other than the one expected, or no answer). */
class Tally {
  readonly done = new Map<string, number>();
  readonly failures: string[] = [];
  /** When the first and the last failure came, in ms since the epoch. */
  readonly failedAt = { first: 0, last: 0 };

  count(kind: string, failure?: string): void {
    this.done.set(kind, (this.done.get(kind) ?? 0) + 1);
    if (!failure) return;
    this.failures.push(`${kind}: ${failure}`);
    this.failedAt.last = Date.now();
    this.failedAt.first ||= this.failedAt.last;
  }

  total(): number {
    return [...this.done.values()].reduce((sum, count) => sum + count, 0);
  }
}

/** `fetch` through nginx, counted: failed unless it answers `expected`. */
async function ask(tally: Tally, kind: string, url: string, init: RequestInit, expected: number): Promise<void> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
    const body = await response.text();
    tally.count(kind, response.status === expected ? undefined : `${response.status} ${body.slice(0, 120)}`);
  } catch (error) {
    tally.count(kind, (error as Error).message);
  }
}

/** One visitor outside the browser: a page, its visitor's gifts, a play; again until `running` ends. */
async function nodeVisitor(origin: string, tally: Tally, running: { on: boolean }, offset: number): Promise<void> {
  for (let turn = offset; running.on; turn++) {
    const page = PAGES[turn % PAGES.length] ?? '/';
    await ask(tally, 'page', `${origin}${page}`, { headers: { accept: 'text/html' } }, 200);
    await ask(tally, 'api GET', `${origin}/api/visitor/gifts`, { headers: { accept: 'application/json' } }, 200);
    const play = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    };
    await ask(tally, 'api POST', `${origin}/api/game/plays`, play, 200);
  }
}

/** A visitor in the browser: a page load, then the API from the page, again until `running` ends. */
async function browserVisitor(page: Page, tally: Tally, running: { on: boolean }): Promise<void> {
  for (let turn = 0; running.on; turn++) {
    const path = PAGES[turn % PAGES.length] ?? '/';
    try {
      const response = await page.goto(path, { waitUntil: 'domcontentloaded' });
      const status = response?.status() ?? 0;
      tally.count('browser page', status === 200 ? undefined : `${path} answered ${status}`);
    } catch (error) {
      tally.count('browser page', `${path}: ${(error as Error).message}`);
    }
    const status = await page
      .evaluate(async () => (await fetch('/api/visitor/gifts', { headers: { accept: 'application/json' } })).status)
      .catch(() => 0);
    tally.count('browser api', status === 200 ? undefined : `/api/visitor/gifts answered ${status}`);
  }
}

/**
 * The documented procedure for one process: SIGTERM, wait until it has exited, start it again,
 * wait until it answers its readiness, then the pause before the next one.
 */
async function restartInTurn(stop: RunningProcess, start: () => Promise<unknown>): Promise<void> {
  await stopProcess(stop);
  await start();
  await delay(RESTART_PAUSE_SECONDS * 1000);
}

test('every API process and every host server restarted in turn under load: no request fails', async () => {
  test.setTimeout(120_000);
  const tally = new Tally();
  const running = { on: true };
  const { page } = await session.newPage();
  const visitors = [
    ...Array.from({ length: NODE_VISITORS }, (_, index) => nodeVisitor(topology.origin, tally, running, index)),
    browserVisitor(page, tally, running),
  ];
  const before = tally.total();
  const startedAt = Date.now();
  for (const index of topology.apis.keys()) {
    await restartInTurn(topology.apis[index]!, () => topology.restartApi(index));
  }
  for (const index of topology.hosts.keys()) {
    await restartInTurn(topology.hosts[index]!, () => topology.restartHost(index));
  }
  const tookMs = Date.now() - startedAt;
  running.on = false;
  await Promise.all(visitors);

  const counts = [...tally.done].map(([kind, count]) => `${kind} ${count}`).join(', ');
  console.log(
    `rolling restart of ${topology.apis.length} API processes and ${topology.hosts.length} host servers in ` +
      `${(tookMs / 1000).toFixed(1)} s: ${tally.total() - before} requests (${counts}), ${tally.failures.length} failed`,
  );
  if (tally.failures.length > 0) {
    const { first, last } = tally.failedAt;
    console.log(`  failures from ${(first - startedAt) / 1000} s to ${(last - startedAt) / 1000} s, the first ones:`);
    for (const failure of tally.failures.slice(0, 10)) console.log(`  failed: ${failure.split('\n')[0]}`);
  }
  // Load went on all along: every kind of request was made while the processes restarted.
  for (const kind of ['page', 'api GET', 'api POST', 'browser page', 'browser api']) {
    expect(tally.done.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }
  expect(tally.failures).toEqual([]);
});
