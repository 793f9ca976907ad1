import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvError } from 'server/env';
import { TELEMETRY_WORST_CASE_SERIES } from 'shared/telemetry-bounds';
import {
  API_LABEL_LIMIT,
  API_OTHER_SERIES,
  API_SAMPLE_LIMIT,
  RULES_DIR,
  renderPrometheusConfig,
} from './render-config';
import { catalogueRegistries } from './testing/catalogue-registries';

const REQUIRED = { GIFT_BOX_METRICS_API: '10.0.0.5:9304, 10.0.0.6:9304' };

describe('renderPrometheusConfig', () => {
  it('fills in every address: one target per API process, the remotes labelled, the defaults', () => {
    const config = renderPrometheusConfig({
      ...REQUIRED,
      GIFT_BOX_METRICS_REMOTES: 'gifts=127.0.0.1:9301, redeem=127.0.0.1:9302, gifts=10.0.0.7:9301',
    });
    expect(config).toContain(
      '  - job_name: api\n    static_configs:\n      - targets: ["10.0.0.5:9304", "10.0.0.6:9304"]',
    );
    expect(config).toContain('  - job_name: host\n    static_configs:\n      - targets: ["127.0.0.1:9300"]');
    expect(config).toContain(
      [
        '  - job_name: remotes',
        '    static_configs:',
        '      - targets: ["127.0.0.1:9301", "10.0.0.7:9301"]',
        '        labels: { remote: gifts }',
        '      - targets: ["127.0.0.1:9302"]',
        '        labels: { remote: redeem }',
      ].join('\n'),
    );
    expect(config).toContain('  - job_name: nginx\n    static_configs:\n      - targets: ["127.0.0.1:9113"]');
    expect(config).toContain('  - job_name: postgres\n    static_configs:\n      - targets: ["127.0.0.1:9187"]');
    expect(config).toContain('  scrape_interval: 15s\n  evaluation_interval: 15s');
    expect(config).toContain(`rule_files:\n  - ${RULES_DIR}/*.rules.yml`);
    expect(config).toContain('        - targets: []');
    expect(config).not.toMatch(/\$\{GIFT_BOX_/);
  });

  it('bounds what one scrape of an API process may hold, above the most series it can serve', async () => {
    const config = renderPrometheusConfig(REQUIRED);
    const apiJob = config.slice(config.indexOf('- job_name: api'), config.indexOf('- job_name: host'));
    expect(apiJob).toContain(`    sample_limit: ${API_SAMPLE_LIMIT}\n    label_limit: ${API_LABEL_LIMIT}\n`);
    expect(API_SAMPLE_LIMIT).toBeGreaterThan(TELEMETRY_WORST_CASE_SERIES + API_OTHER_SERIES);
    // Every API series, with its name and the job and instance Prometheus adds, is within the label limit.
    const [registry] = (await catalogueRegistries(1)).api;
    const labels = (await registry?.getMetricsAsJSON())?.flatMap((metric) =>
      metric.values.map((value) => Object.keys({ ...value.labels, __name__: 1, job: 1, instance: 1 }).length),
    );
    expect(Math.max(...(labels ?? []))).toBeLessThanOrEqual(API_LABEL_LIMIT);
    // The operator reads the same figures.
    const operations = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');
    expect(operations).toContain(`\`sample_limit: ${API_SAMPLE_LIMIT}\``);
    expect(operations).toContain(`\`label_limit: ${API_LABEL_LIMIT}\``);
  });

  it('leaves the remotes job without targets when nginx serves their files', () => {
    expect(renderPrometheusConfig(REQUIRED)).toContain('  - job_name: remotes\n    static_configs: []\n');
  });

  it("takes the exporters', Alertmanager's and the rules' places, and the interval", () => {
    const config = renderPrometheusConfig({
      ...REQUIRED,
      GIFT_BOX_NGINX_EXPORTER: '10.0.0.2:9113',
      GIFT_BOX_POSTGRES_EXPORTER: '10.0.0.3:9187',
      GIFT_BOX_ALERTMANAGERS: '10.0.0.4:9093',
      GIFT_BOX_SCRAPE_INTERVAL: '30s',
      GIFT_BOX_PROMETHEUS_RULES: '/etc/prometheus/gift-box/',
    });
    expect(config).toContain('      - targets: ["10.0.0.2:9113"]');
    expect(config).toContain('      - targets: ["10.0.0.3:9187"]');
    expect(config).toContain('        - targets: ["10.0.0.4:9093"]');
    expect(config).toContain('  scrape_interval: 30s\n  evaluation_interval: 30s');
    expect(config).toContain('  - /etc/prometheus/gift-box/*.rules.yml');
  });

  it.each([
    [{ GIFT_BOX_METRICS_API: undefined }, 'GIFT_BOX_METRICS_API is not set'],
    [{ GIFT_BOX_METRICS_API: ' , ' }, 'GIFT_BOX_METRICS_API is not set'],
    [{ GIFT_BOX_METRICS_HOST: '10.0.0.5' }, 'GIFT_BOX_METRICS_HOST must be host:port addresses'],
    [{ GIFT_BOX_ALERTMANAGERS: 'alertmanager' }, 'GIFT_BOX_ALERTMANAGERS must be host:port addresses'],
    [{ GIFT_BOX_METRICS_API: '10.0.0.5:9304"]\n  - job_name: x' }, 'not valid: "10.0.0.5:9304"]'],
    [{ GIFT_BOX_METRICS_API: '10.0.0.5:70000' }, 'not valid: "10.0.0.5:70000"'],
    [{ GIFT_BOX_METRICS_REMOTES: 'shop=127.0.0.1:9301' }, 'each remote one of gifts, redeem, content'],
    [{ GIFT_BOX_METRICS_REMOTES: 'gifts=127.0.0.1' }, 'each address host:port; not valid: "gifts=127.0.0.1"'],
    [{ GIFT_BOX_SCRAPE_INTERVAL: '15' }, 'GIFT_BOX_SCRAPE_INTERVAL must be a duration such as 15s'],
    [{ GIFT_BOX_PROMETHEUS_RULES: 'rules' }, 'GIFT_BOX_PROMETHEUS_RULES must be an absolute path'],
  ])('refuses %j, naming the variable', (change, message) => {
    expect(() => renderPrometheusConfig({ ...REQUIRED, ...change })).toThrow(EnvError);
    expect(() => renderPrometheusConfig({ ...REQUIRED, ...change })).toThrow(message);
  });

  it('names every bad entry of a list at once', () => {
    expect(() =>
      renderPrometheusConfig({ ...REQUIRED, GIFT_BOX_METRICS_HOST: '10.0.0.1:9300, host, 10.0.0.2:70000' }),
    ).toThrow('not valid: "host", "10.0.0.2:70000"');
    expect(() =>
      renderPrometheusConfig({
        ...REQUIRED,
        GIFT_BOX_METRICS_REMOTES: 'shop=127.0.0.1:9301,gifts=127.0.0.1:9301,redeem=x',
      }),
    ).toThrow('not valid: "shop=127.0.0.1:9301", "redeem=x"');
  });

  it('names every bad variable at once', () => {
    expect(() => renderPrometheusConfig({ GIFT_BOX_METRICS_HOST: 'host', GIFT_BOX_SCRAPE_INTERVAL: 'often' })).toThrow(
      /GIFT_BOX_METRICS_API is not set.*\nGIFT_BOX_METRICS_HOST must be.*\nGIFT_BOX_SCRAPE_INTERVAL must be/,
    );
  });
});

describe('npm run prometheus-config', () => {
  /** The script as npm's tsx runs it, in Node with tsx's loader (without npx's and tsx's own processes). */
  const run = (args: string[], env: Record<string, string | undefined>) =>
    spawnSync(process.execPath, ['--import', require.resolve('tsx'), join(__dirname, 'render-config.ts'), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: 'utf8',
    });

  it('writes the file it is given', () => {
    const folder = mkdtempSync(join(tmpdir(), 'prometheus-config-'));
    try {
      const { status, stderr } = run([join(folder, 'prometheus.yml')], REQUIRED);
      expect(status).toBe(0);
      expect(stderr).toContain('check it with promtool check config');
      expect(readFileSync(join(folder, 'prometheus.yml'), 'utf8')).toBe(renderPrometheusConfig(REQUIRED));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('stops with exit code 1 and the variable, writing nothing, when a value is missing', () => {
    const { status, stdout, stderr } = run([], { GIFT_BOX_METRICS_HOST: '127.0.0.1:9300' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      "prometheus-config: GIFT_BOX_METRICS_API is not set: the API processes' metrics listeners",
    );
  }, 30_000);
});
