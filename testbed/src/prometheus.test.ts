import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrometheusQueryError, prometheusConfig, startPrometheus, type RunningPrometheus } from './prometheus';

test('the configuration scrapes each target with its labels, at the interval given, with the rule files', () => {
  const config = JSON.parse(
    prometheusConfig(
      [{ job: 'remotes', targets: ['127.0.0.1:1', { address: '127.0.0.1:2', labels: { remote: 'gifts' } }] }],
      ['/rules/a.yml'],
      2,
    ),
  );
  expect(config.global).toEqual({ scrape_interval: '2s', evaluation_interval: '2s', scrape_timeout: '2s' });
  expect(config.rule_files).toEqual(['/rules/a.yml']);
  expect(config.scrape_configs).toEqual([
    {
      job_name: 'remotes',
      metrics_path: '/metrics',
      static_configs: [{ targets: ['127.0.0.1:1'] }, { targets: ['127.0.0.1:2'], labels: { remote: 'gifts' } }],
    },
  ]);
});

describe('a throwaway Prometheus', () => {
  let target: Server;
  let rules: string;
  let prometheus: RunningPrometheus;
  let served = 0;

  beforeAll(async () => {
    // A counter that grows on each scrape, so rate() has something to say.
    target = createServer((req, res) => {
      served += 1;
      res.writeHead(req.url === '/metrics' ? 200 : 404, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(`# TYPE demo_requests_total counter\ndemo_requests_total{route="/a"} ${served}\n`);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    rules = mkdtempSync(join(tmpdir(), 'prometheus-rules-'));
    writeFileSync(
      join(rules, 'demo.yml'),
      [
        'groups:',
        '  - name: demo',
        '    rules:',
        '      - record: route:demo_requests:rate1m',
        '        expr: sum by (route) (rate(demo_requests_total[1m]))',
        '      - alert: DemoServed',
        '        expr: demo_requests_total > 0',
        '        labels: { severity: info }',
        '',
      ].join('\n'),
    );
    prometheus = await startPrometheus({
      jobs: [
        {
          job: 'demo',
          targets: [{ address: `127.0.0.1:${(target.address() as AddressInfo).port}`, labels: { part: 'demo' } }],
        },
      ],
      ruleFiles: [join(rules, 'demo.yml')],
    });
  }, 40_000);

  afterAll(async () => {
    await prometheus?.stop();
    target?.close();
    rmSync(rules, { recursive: true, force: true });
  });

  it('scrapes the targets, with their labels, and answers queries', async () => {
    const [up] = await prometheus.waitForTargetsUp();
    expect(up).toMatchObject({ scrapePool: 'demo', health: 'up', labels: { job: 'demo', part: 'demo' } });
    const [sample] = await prometheus.waitFor('a sample', async () => {
      const vector = await prometheus.vector('demo_requests_total');
      return vector.length > 0 && vector;
    });
    expect(sample?.metric).toMatchObject({ __name__: 'demo_requests_total', job: 'demo', part: 'demo', route: '/a' });
  }, 30_000);

  it('evaluates the recording rules and the alerts of its rule files', async () => {
    const recorded = await prometheus.waitFor('the recorded rate', async () => {
      const vector = await prometheus.vector('route:demo_requests:rate1m');
      return vector.length > 0 && vector;
    });
    expect(recorded[0]?.metric).toEqual({ __name__: 'route:demo_requests:rate1m', route: '/a' });
    const alert = await prometheus.waitFor('the alert', async () =>
      (await prometheus.alerts()).find((candidate) => candidate.labels.alertname === 'DemoServed'),
    );
    expect(alert).toMatchObject({ state: 'firing', labels: { severity: 'info', route: '/a' } });
  }, 30_000);

  it("rejects a query it refuses, with Prometheus's words", async () => {
    await expect(prometheus.query('sum(')).rejects.toThrow(PrometheusQueryError);
    await expect(prometheus.query('rate(demo_requests_total)')).rejects.toThrow(/bad_data/);
  });

  it('removes its temporary folder when stopped', async () => {
    const second = await startPrometheus({ jobs: [] });
    const folder = join(second.configFile, '..');
    expect(existsSync(folder)).toBe(true);
    await second.stop();
    expect(second.hasExited()).toBe(true);
    expect(existsSync(folder)).toBe(false);
  }, 40_000);
});
