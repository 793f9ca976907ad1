/**
 * The monitoring setup against real parts: Debian's Prometheus on the rendered configuration and
 * the rules, scraping every part's registry (prom-client, served by server/metrics' listener),
 * Gift Box's nginx site (deploy/nginx) through prometheus-nginx-exporter and a PostgreSQL cluster through
 * prometheus-postgres-exporter. Every target is scraped, every rule evaluates, every query of the
 * Grafana dashboard answers with data, and the alerts fire on what they watch.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenMetrics, type MetricsListener } from 'server/metrics';
import { REMOTE_NAMES } from 'shared/remotes';
import { freePort } from 'testbed/free-port';
import { BROTLI_STATIC_MODULE, startNginx, type RunningNginx } from 'testbed/nginx';
import { startCluster, type Cluster } from 'testbed/postgres';
import { stopProcess } from 'testbed/process';
import { startPrometheus, type RunningPrometheus } from 'testbed/prometheus';
import { startNginxExporter, startPostgresExporter, type RunningExporter } from 'testbed/prometheus-exporters';
import { dashboardQueries } from './testing/dashboard-queries';
import { renderNginxConfig } from '../nginx/render-config';
import { renderPrometheusConfig } from './render-config';
import { catalogueRegistries, type CatalogueRegistries } from './testing/catalogue-registries';

let dir: string;
let registries: CatalogueRegistries;
const listeners: MetricsListener[] = [];
let nginx: RunningNginx | undefined;
let cluster: Cluster | undefined;
const exporters: RunningExporter[] = [];
let prometheus: RunningPrometheus | undefined;

async function listen(registry: CatalogueRegistries['host']): Promise<string> {
  const listener = await listenMetrics(registry, 0);
  listeners.push(listener);
  return `127.0.0.1:${listener.port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'monitoring-'));
  registries = await catalogueRegistries();
  const [api, host, remotes] = await Promise.all([
    Promise.all(registries.api.map(listen)),
    listen(registries.host),
    Promise.all(REMOTE_NAMES.map(async (remote) => `${remote}=${await listen(registries.remotes[remote]!)}`)),
  ]);

  // nginx with Gift Box's site, as npm run nginx-config renders it: its loopback status server
  // on a free port instead of 8080.
  const [sitePort, statusPort, nginxExporter, postgresExporter] = await Promise.all(
    Array.from({ length: 4 }, () => freePort()),
  );
  const site = join(dir, 'gift-box.conf');
  writeFileSync(
    site,
    renderNginxConfig({
      GIFT_BOX_API_SERVERS: api[0] ?? '',
      GIFT_BOX_HOST_DIST: dir,
      GIFT_BOX_REMOTES_DIR: dir,
      GIFT_BOX_LISTEN: `127.0.0.1:${sitePort}`,
      GIFT_BOX_STATUS_PORT: String(statusPort),
      GIFT_BOX_ACCESS_LOG: join(dir, 'nginx', 'access.log'),
    }),
  );
  const stubStatus = `http://127.0.0.1:${statusPort}/stub_status`;
  const config = renderPrometheusConfig({
    GIFT_BOX_METRICS_API: api.join(','),
    GIFT_BOX_METRICS_HOST: host,
    GIFT_BOX_METRICS_REMOTES: remotes.join(','),
    GIFT_BOX_NGINX_EXPORTER: `127.0.0.1:${nginxExporter}`,
    GIFT_BOX_POSTGRES_EXPORTER: `127.0.0.1:${postgresExporter}`,
    GIFT_BOX_SCRAPE_INTERVAL: '1s',
  });
  // Prometheus first: it applies its targets about 5 s after it starts, time for the rest.
  [prometheus, nginx, cluster] = await Promise.all([
    startPrometheus({ config, dir: join(dir, 'prometheus') }),
    startNginx({
      dir: join(dir, 'nginx'),
      http: [`include ${site};`],
      modules: [BROTLI_STATIC_MODULE],
      readyUrl: stubStatus,
    }),
    startCluster(),
  ]);
  exporters.push(
    ...(await Promise.all([
      startNginxExporter(stubStatus, { logDir: dir, address: `127.0.0.1:${nginxExporter}` }),
      startPostgresExporter(cluster.url, { logDir: dir, address: `127.0.0.1:${postgresExporter}` }),
    ])),
  );
  await prometheus.waitForTargetsUp();
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await Promise.all(exporters.map((exporter) => stopProcess(exporter)));
  if (nginx) await stopProcess(nginx);
  await cluster?.stop();
  await Promise.all(listeners.map((listener) => listener.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

function running(): RunningPrometheus {
  if (!prometheus) throw new Error('Prometheus did not start');
  return prometheus;
}

/** Resolves once every target was scraped twice (a rate has two samples) and the rules evaluated after. */
async function scrapedTwice(): Promise<void> {
  await running().waitFor('two scrapes of every target', async () => {
    const [fewest] = await running().vector('min(count_over_time(up[1m]))');
    return Number(fewest?.value[1]) >= 2;
  });
  await running().waitFor('an evaluation of the rules after them', async () => {
    const [ratio] = await running().vector('remote_build:giftbox_remote_load_failures:ratio_rate5m');
    return ratio !== undefined;
  });
}

test('every target of the rendered configuration is scraped: two API processes, the host, each remote with its label, nginx and PostgreSQL through their exporters', async () => {
  const targets = await running().targets();
  const seen = targets.map(({ labels }) => [labels.job, labels.remote ?? ''].join(' ')).sort();
  expect(seen).toEqual(
    ['api ', 'api ', 'host ', 'nginx ', 'postgres ', ...REMOTE_NAMES.map((name) => `remotes ${name}`)].sort(),
  );
  expect(targets.every((target) => target.health === 'up')).toBe(true);
  const [nginxUp] = await running().vector('nginx_up');
  expect(nginxUp?.value[1]).toBe('1');
  const [pgUp] = await running().vector('pg_up');
  expect(pgUp?.value[1]).toBe('1');
});

test('every recording rule and alert evaluates without error, and each alert says what to do', async () => {
  await scrapedTwice();
  const rules = await running().waitFor('an evaluation of every rule', async () => {
    const all = await running().rules();
    return all.every(({ health }) => health !== 'unknown') && all;
  });
  expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
  const recorded = rules.filter(({ type }) => type === 'recording').map(({ name }) => name);
  const withoutData = async () =>
    (await Promise.all(recorded.map(async (name) => ((await running().vector(name)).length > 0 ? [] : [name])))).flat();
  const missing = await running()
    .waitFor('data of every recording rule', async () => {
      const names = await withoutData();
      return names.length === 0 && names;
    })
    .catch(withoutData);
  expect(missing).toEqual([]);
  const alerts = rules.filter(({ type }) => type === 'alerting');
  expect(alerts.map(({ name }) => name).sort()).toEqual([
    'ApiServerErrors',
    'CanaryUnjudged',
    'CspViolations',
    'DatabaseUnreachable',
    'LayoutShifts',
    'RemoteBuildFallbacks',
    'RemoteBuildLoadFailures',
    'SlowLargestContentfulPaint',
  ]);
  for (const alert of alerts) {
    expect(['critical', 'warning']).toContain(alert.labels?.severity);
    expect(Object.keys(alert.annotations ?? {}).sort()).toEqual(['description', 'runbook', 'summary']);
  }
}, 30_000);

test("every query of the Grafana dashboard succeeds and answers with data, its variables' too", async () => {
  await scrapedTwice();
  const queries = dashboardQueries(JSON.parse(readFileSync(join(__dirname, 'grafana-dashboard.json'), 'utf8')));
  expect(queries.length).toBeGreaterThan(40);
  const ask = () =>
    Promise.all(
      queries.map(async ({ where, expr }) => {
        try {
          const data = await running().query(expr);
          return { where, expr, answer: data.result.length > 0 ? 'data' : 'no data' };
        } catch (error) {
          return { where, expr, answer: (error as Error).message };
        }
      }),
    );
  // A refused query fails at once; one without data yet may be waiting on a scrape that failed
  // on a busy machine, so it is asked again until the deadline.
  let answers = await ask();
  await running()
    .waitFor('data for every query', async () => {
      if (answers.some(({ answer }) => answer !== 'data' && answer !== 'no data')) return true;
      answers = await ask();
      return answers.every(({ answer }) => answer === 'data');
    })
    .catch(() => undefined);
  expect(answers.filter(({ answer }) => answer !== 'data')).toEqual([]);
}, 40_000);

test("a new build whose loads fail for several clients fires RemoteBuildLoadFailures, its visitors' first reports counted", async () => {
  registries.reportLoads('redeem', 'b9', 'ok', 40);
  registries.reportLoads('redeem', 'b9', 'failed', 20);
  // With two API processes, one client may count 4 times in 5 minutes: 9 stand for 3 at least.
  registries.reportClients('redeem', 'b9', 'failed', 9);
  const alert = await running().waitFor('RemoteBuildLoadFailures', async () =>
    (await running().alerts()).find(
      ({ labels }) => labels.alertname === 'RemoteBuildLoadFailures' && labels.build === 'b9',
    ),
  );
  expect(alert).toMatchObject({ state: 'firing', labels: { remote: 'redeem', severity: 'critical' } });
  expect(alert.annotations.summary).toBe('Remote redeem, build b9: 33.33% of loads fail');
  // The other builds' loads are fine.
  expect(
    (await running().alerts()).filter(({ labels }) => labels.alertname === 'RemoteBuildLoadFailures'),
  ).toHaveLength(1);
}, 30_000);

test('a canary nobody has judged for more than 3 minutes fires CanaryUnjudged, naming it; one judged now does not', async () => {
  const minutesAgo = (minutes: number) => Date.now() - minutes * 60_000;
  registries.runCanary({ part: 'content', id: 'c7', percent: 50, since: minutesAgo(10) });
  registries.runCanary({ part: 'redeem', id: 'r8', percent: 10, since: minutesAgo(10), judgedAt: Date.now() });
  const alert = await running().waitFor('CanaryUnjudged', async () =>
    (await running().alerts()).find(({ labels }) => labels.alertname === 'CanaryUnjudged'),
  );
  expect(alert).toMatchObject({ state: 'firing', labels: { remote: 'content', build: 'c7', severity: 'critical' } });
  expect(alert.annotations.summary).toMatch(/^Canary of remote content, build c7: judged by nobody for 10m \d+s$/);
  expect(alert.annotations.runbook).toContain('npm run release -w remote-content -- <folder> --build c7');
  // The canary judged now is quiet.
  expect(
    (await running().alerts())
      .filter(({ labels }) => labels.alertname === 'CanaryUnjudged')
      .map(({ labels }) => labels.build),
  ).toEqual(['c7']);
}, 30_000);

test('PostgreSQL stopped: DatabaseUnreachable is pending, to fire after its minute, and the exporter says pg_up 0', async () => {
  await cluster?.pause();
  const alert = await running().waitFor('DatabaseUnreachable', async () =>
    (await running().alerts()).find(({ labels }) => labels.alertname === 'DatabaseUnreachable'),
  );
  expect(alert).toMatchObject({ state: 'pending', labels: { job: 'postgres', severity: 'critical' } });
  // The exporter says so (it takes about a second to give up on PostgreSQL: past this test's
  // 1 s scrape timeout, so here Prometheus sees the exporter down instead, which fires alike).
  const metrics = await (await fetch(`http://${exporters[1]?.address}/metrics`)).text();
  expect(metrics).toMatch(/^pg_up 0$/m);
}, 30_000);
