/**
 * Operators see what visitors see: the production topology (nginx, the host's server, the
 * deployed remotes, two API processes on PostgreSQL) with Debian's Prometheus on the
 * configuration and rules of deploy/prometheus, scraping every server's metrics listener and
 * nginx and PostgreSQL through their exporters. Visitors play the journey and open pages; one
 * visitor's gifts chunk is blocked, another's gifts entry is tampered with. Within 30 s
 * Prometheus shows the failures under the gifts remote and the build the visitors were served,
 * the vitals under the part that owns them, and the failure-ratio alert firing; nothing any
 * telemetry body or metric carries names a gift, a redeem session, an email or a voucher code.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { runToEnd, stopProcess } from 'testbed/process';
import { startPrometheus, type RunningPrometheus, type Sample } from 'testbed/prometheus';
import { startNginxExporter, startPostgresExporter, type RunningExporter } from 'testbed/prometheus-exporters';
import { waitForRenderedPage } from '../support/app-page';
import { blocked, interceptOnly, recordTelemetry, sentBodies, type PausedRequest } from '../support/beacons';
import { openSession, type BrowserSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { startTopology, TOPOLOGY_DIR, type Topology } from '../support/topology';
import { ROOT_DIR } from '../support/test-env';

const EMAIL = 'observed.winner@example.com';
/** Healthy loads of the gifts remote: the alert wants at least 50 over 5 minutes. */
const HEALTHY_VISITORS = 6;
const VISITS_EACH = 10;
/** How soon the operator sees what the visitors met. */
const VISIBLE_WITHIN_MS = 30_000;

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;
let prometheus: RunningPrometheus;
const exporters: RunningExporter[] = [];
let visitors: BrowserSession;
let chromium: Browser;
/** What the pages of the visitors with a browser of their own sent. */
const ownBrowsersBodies: string[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  topology = await startTopology();
  const dir = join(TOPOLOGY_DIR, 'prometheus');
  mkdirSync(dir, { recursive: true });
  exporters.push(
    ...(await Promise.all([
      startNginxExporter(topology.nginxStatusUrl, { logDir: dir }),
      startPostgresExporter(topology.database.url, { logDir: dir }),
    ])),
  );
  const [nginxExporter, postgresExporter] = exporters;
  // The configuration as an operator makes it (docs/operations.md), scraping every second.
  const configFile = join(dir, 'gift-box.yml');
  await runToEnd({
    name: 'npm run prometheus-config',
    command: 'npm',
    args: ['run', '--silent', 'prometheus-config', '--', configFile],
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      GIFT_BOX_METRICS_API: topology.apis.map((api) => api.metrics).join(','),
      GIFT_BOX_METRICS_HOST: topology.hostMetrics,
      GIFT_BOX_NGINX_EXPORTER: nginxExporter?.address,
      GIFT_BOX_POSTGRES_EXPORTER: postgresExporter?.address,
      GIFT_BOX_SCRAPE_INTERVAL: '1s',
    },
    output: join(dir, 'prometheus-config.log'),
  });
  prometheus = await startPrometheus({ dir, config: readFileSync(configFile, 'utf8') });
  // Every target scraped before a visitor comes: a series a batch creates is then counted whole.
  await prometheus.waitForTargetsUp(30_000);
  visitors = await openSession(browser, { baseURL: topology.origin });
  chromium = browser;
});

test.afterAll(async () => {
  await visitors?.close();
  await prometheus?.stop();
  await Promise.all(exporters.map((exporter) => stopProcess(exporter, { hard: true })));
  await topology?.stop();
});

/** Leaves the page as a visitor does: it is hidden, and its queued telemetry goes. */
async function leave(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.close();
}

async function buildOf(remote: string): Promise<string> {
  const response = await fetch(`${topology.origin}/remotes/${remote}/mf-manifest.json`);
  const manifest = (await response.json()) as { buildId?: string };
  if (!manifest.buildId) throw new Error(`the ${remote} manifest names no build`);
  return manifest.buildId;
}

/** What a whole journey leaves behind that no telemetry or metric may carry. */
interface Secrets {
  giftId: string;
  redeemId: string;
  voucher: string;
}

async function playTheJourney(): Promise<Secrets> {
  const { page } = await visitors.newPage();
  await recordTelemetry(page);
  expect((await page.goto('/game'))?.status()).toBe(200);
  await page.getByRole('button', { name: 'Box 2' }).click();
  await page.getByRole('heading', { name: 'You won!' }).waitFor();
  await page.getByRole('link', { name: 'Open your gift' }).click();
  await page.waitForURL(/\/gifts\/[A-Za-z0-9_-]{24}$/);
  const giftId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  await page.getByRole('heading', { name: /^Your gift(:|$)/ }).waitFor();
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.waitForURL(/\/redeem\/[A-Za-z0-9_-]{24}$/);
  const redeemId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  await page.getByRole('textbox', { name: /Email address/ }).fill(EMAIL);
  await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
  await page.getByRole('button', { name: 'Redeem my gift' }).click();
  const voucher = page.getByRole('group', { name: 'Voucher code' });
  await voucher.waitFor();
  const code = /[0-9A-Z]{4}(-[0-9A-Z]{4}){6}/.exec(await voucher.innerText())?.[0] ?? '';
  expect(code).not.toBe('');
  // A full load of the gift's page, then away: its vitals and loads are sent with the rest.
  await page.goto(`/gifts/${giftId}`);
  await waitForRenderedPage(page);
  await leave(page);
  return { giftId, redeemId, voucher: code };
}

/**
 * A visitor opening the game page `visits` times, each a full page load of the gifts remote, in a
 * browser of their own: pages loading at once in one browser may read one another's ticket, and
 * count one load for two pages.
 */
async function openTheGame(visits: number): Promise<void> {
  const own = await openSession(chromium, { baseURL: topology.origin });
  const { page } = await own.newPage();
  await recordTelemetry(page);
  for (let visit = 0; visit < visits; visit += 1) {
    expect((await page.goto('/game'))?.status()).toBe(200);
    await page.getByRole('button', { name: 'Box 2' }).waitFor();
    await waitForRenderedPage(page);
  }
  await leave(page);
  ownBrowsersBodies.push(...(await sentBodies(own.context)));
  await own.close();
}

/** Its answer comes with other bytes than those the build made (decoded, so sent without an encoding). */
async function tampered(cdp: CDPSession, paused: PausedRequest): Promise<void> {
  const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId: paused.requestId });
  const text = base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  await cdp.send('Fetch.fulfillRequest', {
    requestId: paused.requestId,
    responseCode: paused.responseStatusCode ?? 200,
    responseHeaders: (paused.responseHeaders ?? []).filter(({ name }) => !/^content-(encoding|length)$/i.test(name)),
    body: Buffer.from(`${text}\n;window.__tampered = true;`).toString('base64'),
  });
}

/**
 * A visitor whose gifts remote fails: `breakIt` breaks its requests; the page says the part is
 * unavailable. Its requests reach nginx from this machine like every visitor's, so each comes
 * with the address it stands for in X-Forwarded-For, which nginx passes on after its own: the API,
 * trusting loopback, counts each failing visitor as a client of its own (the page it ends on, at
 * least).
 */
async function failingVisitor(address: string, breakIt: (page: Page) => Promise<void>): Promise<void> {
  const { page } = await visitors.newPage();
  await recordTelemetry(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'X-Forwarded-For': address } });
  await breakIt(page);
  await page.goto('/game');
  await page.getByText('Part of this page didn’t load, so it may not be up to date.').waitFor({ timeout: 30_000 });
  // The visitor switches away: the page sends what it saw as its tab is hidden, while it lives.
  // (A beacon sent as a page unloads goes without the DevTools' extra header, so from this
  // machine's address: the first page's, which the reload guard reloaded, does.)
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await leave(page);
}

const values = (samples: Sample[]) => samples.map((sample) => Number(sample.value[1]));

test('a blocked chunk and a tampered entry reach Prometheus under the gifts remote and its build within 30 s, with the vitals of each part, and the failure-ratio alert fires; no telemetry or metric names a gift, a redeem, an email or a code', async () => {
  test.setTimeout(240_000);
  const build = await buildOf('gifts');
  // Two visitors' expose chunk of the game page never arrives; a third's remote entry has bytes
  // that are not those its manifest's integrity names: three clients, so the alert, which needs
  // more than one client's word, may page someone. They share the journey's browser, so they come
  // after it, one at a time, while the healthy visitors (browsers of their own) still load.
  const journeyThenFailures = async (): Promise<Secrets> => {
    const played = await playTheJourney();
    for (const address of ['198.51.100.11', '198.51.100.12'])
      await failingVisitor(address, (page) =>
        interceptOnly(page, '*/remotes/gifts/__federation_expose_GamePage.*.js', 'Request', blocked),
      );
    await failingVisitor('198.51.100.13', (page) =>
      interceptOnly(page, '*/remotes/gifts/remoteEntry.js', 'Response', tampered),
    );
    return played;
  };
  const [secrets] = await Promise.all([
    journeyThenFailures(),
    ...Array.from({ length: HEALTHY_VISITORS }, () => openTheGame(VISITS_EACH)),
  ]);
  const failedAt = Date.now();

  // Each failing visitor's page, and the one reload the guard gave it: two loads each.
  let seen: Record<string, number> = {};
  const failures = await prometheus
    .waitFor(
      'the failed gifts loads under the build served',
      async () => {
        const samples = await prometheus.vector(
          `sum by (phase, outcome) (giftbox_remote_loads_total{remote="gifts", build="${build}", outcome!="ok"})`,
        );
        const counts = Object.fromEntries(
          samples.map((sample) => [`${sample.metric.phase}/${sample.metric.outcome}`, Number(sample.value[1])]),
        );
        seen = counts;
        return Object.values(counts).reduce((sum, count) => sum + count, 0) >= 6 ? counts : undefined;
      },
      VISIBLE_WITHIN_MS,
    )
    .catch(async (error: unknown) => {
      const batches = await prometheus.vector('sum by (result) (giftbox_telemetry_batches_total)');
      const results = batches.map((sample) => `${sample.metric.result}: ${sample.value[1]}`).join(', ');
      throw new Error(`${(error as Error).message}; failed loads seen: ${JSON.stringify(seen)}; batches: ${results}`);
    });
  expect(failures).toEqual({ 'chunk/failed': 4, 'entry/integrity': 2 });
  expect(
    values(await prometheus.vector(`sum(giftbox_reloads_total{route="/game", remote="gifts", build="${build}"})`)),
  ).toEqual([3]);

  const firing = await prometheus
    .waitFor(
      'RemoteBuildLoadFailures firing for the gifts build',
      async () =>
        (await prometheus.alerts()).find(
          (alert) =>
            alert.labels.alertname === 'RemoteBuildLoadFailures' &&
            alert.state === 'firing' &&
            alert.labels.remote === 'gifts' &&
            alert.labels.build === build,
        ),
      VISIBLE_WITHIN_MS - (Date.now() - failedAt),
    )
    .catch(async (error: unknown) => {
      const figures = await Promise.all(
        [
          `giftbox_build_clients_total{remote="gifts", build="${build}"}`,
          `remote_build_signal:giftbox_build_clients:fewest5m{remote="gifts", build="${build}"}`,
          `remote_build:giftbox_remote_load_failures:ratio_rate5m{remote="gifts", build="${build}"}`,
          `remote_build:giftbox_remote_loads:increase5m{remote="gifts", build="${build}"}`,
        ].map(async (expr) => {
          const samples = await prometheus.vector(expr);
          const shown = samples.map(
            (sample) => `${sample.metric.instance ?? ''} ${sample.metric.signal ?? ''} ${sample.value[1]}`,
          );
          return `${expr.split('{')[0]}: ${shown.join(', ') || 'none'}`;
        }),
      );
      throw new Error(`${(error as Error).message}; ${figures.join('; ')}`);
    });
  expect(firing.annotations.runbook).toBeTruthy();
  expect(
    values(await prometheus.vector(`ALERTS{alertname="RemoteBuildLoadFailures", alertstate="firing", remote="gifts"}`)),
  ).toEqual([1]);
  const loads = values(
    await prometheus.vector(`sum(giftbox_remote_loads_total{remote="gifts", build="${build}", outcome="ok"})`),
  );
  expect(loads[0]).toBeGreaterThanOrEqual(HEALTHY_VISITORS * VISITS_EACH);

  // The vitals of the game page belong to the gifts remote, and to its build.
  const lcp = await prometheus.vector(
    `sum by (remote, build) (giftbox_web_vital_seconds_count{metric="LCP", route="/game"})`,
  );
  expect(lcp.map((sample) => sample.metric)).toContainEqual({ remote: 'gifts', build });
  const routes = await prometheus.vector(`count by (route, remote, metric) (giftbox_web_vital_seconds_count)`);
  for (const { metric } of routes) {
    if (metric.route !== '/game' && metric.route !== '/gifts/:giftId') continue;
    // A page's loading vitals are its remote's or the host's layout's, never another remote's.
    if (metric.metric !== 'INP') expect(['gifts', 'host']).toContain(metric.remote);
    // An interaction's is the part whose scripts ran longest in it: a click on the gift page's
    // Redeem, its page loaded on intent, renders the redeem remote's page in that very frame.
    else expect(['gifts', 'redeem', 'host']).toContain(metric.remote);
  }

  // Nothing personal anywhere: every body sent, every API process's and the host's metrics, and
  // every series Prometheus holds.
  const bodies = [...(await sentBodies(visitors.context)), ...ownBrowsersBodies];
  expect(bodies.length).toBeGreaterThanOrEqual(HEALTHY_VISITORS * VISITS_EACH);
  expect(bodies.every((body) => body.startsWith('{"host":'))).toBe(true);
  const metricsTexts = await Promise.all(
    [...topology.apis.map((api) => api.metrics), topology.hostMetrics].map(async (address) =>
      (await fetch(`http://${address}/metrics`)).text(),
    ),
  );
  const series = JSON.stringify(await prometheus.vector('{__name__=~"giftbox_.+"}'));
  const everything = [...bodies, ...metricsTexts, series];
  for (const secret of [secrets.giftId, secrets.redeemId, secrets.voucher, EMAIL, 'example.com']) {
    for (const text of everything) expect(text).not.toContain(secret);
  }
  // No path with an id either: route patterns only.
  for (const text of everything) expect(text).not.toMatch(/\/(gifts|redeem)\/[A-Za-z0-9_-]{24}/);
});
