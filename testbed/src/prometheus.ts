/**
 * Debian's Prometheus for tests: a throwaway server on loopback (a free port, its storage in a
 * folder of its own, removed at stop) scraping the targets it is given, or running a whole
 * configuration (deploy/prometheus's, rendered), with rule files; ready once `/-/ready` answers.
 * Short intervals (1 s by default) let a test see a scrape, a recording rule or an alert within
 * seconds; the helpers query it through its HTTP API. Prometheus 2.42 applies its targets about
 * 5 s after it starts (its scrape manager's fixed tick): start it before the servers it scrapes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from './free-port';
import { startServer, stopProcess, type RunningProcess } from './process';

export const PROMETHEUS_PATH = process.env.PROMETHEUS_PATH || '/usr/bin/prometheus';
export const PROMTOOL_PATH = process.env.PROMTOOL_PATH || '/usr/bin/promtool';
const READY_TIMEOUT_MS = 30_000;
const POLL_MS = 200;
const DEFAULT_WAIT_MS = 20_000;

/** A target to scrape: its address (host:port), and labels added to its every series. */
export interface ScrapeTarget {
  address: string;
  labels?: Readonly<Record<string, string>>;
}

export interface ScrapeJob {
  job: string;
  targets: readonly (string | ScrapeTarget)[];
  metricsPath?: string;
}

export interface PrometheusOptions {
  /** What to scrape, as jobs; or `config`. */
  jobs?: readonly ScrapeJob[];
  /** Rule files (absolute paths) evaluated with `jobs`. */
  ruleFiles?: readonly string[];
  /** Scrape and evaluation interval with `jobs`, in seconds (1 by default). */
  intervalSeconds?: number;
  /** A whole prometheus.yml instead of `jobs`: its intervals and rule files are its own. */
  config?: string;
  /** The folder for the configuration, storage and log; a temporary one (removed at stop) by default. */
  dir?: string;
  /** The port to listen on (loopback); a free one by default. */
  port?: number;
}

/** One element of an instant query's answer. */
export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface QueryData {
  resultType: 'vector' | 'matrix' | 'scalar' | 'string';
  result: Sample[] | [number, string];
}

export interface Alert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

/** A rule as Prometheus loaded it, with how its last evaluation went. */
export interface Rule {
  name: string;
  query: string;
  type: 'recording' | 'alerting';
  health: 'ok' | 'err' | 'unknown';
  lastError?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  duration?: number;
}

export interface Target {
  labels: Record<string, string>;
  scrapePool: string;
  scrapeUrl: string;
  health: 'up' | 'down' | 'unknown';
  lastError: string;
}

/** Prometheus answered a query with an error (a bad expression, say): its words. */
export class PrometheusQueryError extends Error {
  constructor(
    readonly expr: string,
    readonly errorType: string,
    readonly error: string,
  ) {
    super(`Prometheus refused ${JSON.stringify(expr)}: ${errorType}: ${error}`);
    this.name = 'PrometheusQueryError';
  }
}

export interface RunningPrometheus extends RunningProcess {
  /** Its base URL, http://127.0.0.1:<port>. */
  url: string;
  configFile: string;
  /** An instant query (now, or at `time` in seconds); rejects with PrometheusQueryError when refused. */
  query(expr: string, time?: number): Promise<QueryData>;
  /** An instant query's vector. */
  vector(expr: string): Promise<Sample[]>;
  /** Every alert pending or firing. */
  alerts(): Promise<Alert[]>;
  targets(): Promise<Target[]>;
  /** Every rule of every group. */
  rules(): Promise<Rule[]>;
  /** Polls `check` until it returns a value other than undefined or false; rejects after `timeoutMs` naming `what`. */
  waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  /** Resolves once every target has been scraped successfully. */
  waitForTargetsUp(timeoutMs?: number): Promise<Target[]>;
  /** Stops it and removes a temporary folder. */
  stop(): Promise<void>;
}

function targetOf(target: string | ScrapeTarget): ScrapeTarget {
  return typeof target === 'string' ? { address: target } : target;
}

/**
 * A prometheus.yml for `jobs`. JSON is YAML, so no YAML writer is needed; each target gets a
 * static_configs entry of its own, since labels are per entry.
 */
export function prometheusConfig(
  jobs: readonly ScrapeJob[],
  ruleFiles: readonly string[] = [],
  intervalSeconds = 1,
): string {
  const interval = `${intervalSeconds}s`;
  return `${JSON.stringify(
    {
      global: { scrape_interval: interval, evaluation_interval: interval, scrape_timeout: interval },
      rule_files: ruleFiles,
      scrape_configs: jobs.map((job) => ({
        job_name: job.job,
        metrics_path: job.metricsPath ?? '/metrics',
        static_configs: job.targets.map(targetOf).map((target) => ({
          targets: [target.address],
          ...(target.labels ? { labels: target.labels } : {}),
        })),
      })),
    },
    null,
    2,
  )}\n`;
}

async function api<T>(url: string, expr?: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const body = (await response.json()) as { status: string; data: T; errorType?: string; error?: string };
  if (body.status !== 'success') throw new PrometheusQueryError(expr ?? url, body.errorType ?? '', body.error ?? '');
  return body.data;
}

interface Spawned {
  started: RunningProcess;
  url: string;
  dir: string;
  configFile: string;
  temporary: boolean;
}

async function spawnPrometheus(options: PrometheusOptions): Promise<Spawned> {
  const temporary = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'testbed-prometheus-'));
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(
    configFile,
    options.config ?? prometheusConfig(options.jobs ?? [], options.ruleFiles, options.intervalSeconds),
  );
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  try {
    const started = await startServer({
      name: 'prometheus',
      command: PROMETHEUS_PATH,
      args: [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
      output: join(dir, 'prometheus.log'),
      exitWithParent: true,
      health: `${url}/-/ready`,
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
    return { started, url, dir, configFile, temporary };
  } catch (error) {
    if (temporary) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

type Client = Pick<RunningPrometheus, 'query' | 'vector' | 'alerts' | 'targets' | 'rules' | 'waitFor'>;

function prometheusClient(url: string, started: RunningProcess): Client {
  const query = (expr: string, time?: number) =>
    api<QueryData>(
      `${url}/api/v1/query?${new URLSearchParams({ query: expr, ...(time === undefined ? {} : { time: String(time) }) })}`,
      expr,
    );
  return {
    query,
    vector: async (expr) => {
      const data = await query(expr);
      if (data.resultType !== 'vector') throw new Error(`${expr} is a ${data.resultType}, not a vector`);
      return data.result as Sample[];
    },
    alerts: async () => (await api<{ alerts: Alert[] }>(`${url}/api/v1/alerts`)).alerts,
    targets: async () => (await api<{ activeTargets: Target[] }>(`${url}/api/v1/targets`)).activeTargets,
    rules: async () =>
      (await api<{ groups: { rules: Rule[] }[] }>(`${url}/api/v1/rules`)).groups.flatMap((group) => group.rules),
    waitFor: async <T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = DEFAULT_WAIT_MS) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value !== undefined && value !== false) return value;
        if (started.hasExited()) throw new Error(`prometheus exited while waiting for ${what}:\n${started.tail()}`);
        if (Date.now() > deadline) throw new Error(`prometheus: no ${what} within ${timeoutMs} ms`);
        await delay(POLL_MS);
      }
    },
  };
}

/** Starts Prometheus on a free loopback port and waits until it is ready. */
export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  if (!options.config && !options.jobs) throw new Error('startPrometheus needs `jobs` or `config`');
  const { started, url, dir, configFile, temporary } = await spawnPrometheus(options);
  const client = prometheusClient(url, started);
  return {
    ...started,
    ...client,
    url,
    configFile,
    waitForTargetsUp: (timeoutMs) =>
      client
        .waitFor(
          'scrape of every target',
          async () => {
            const active = await client.targets();
            return active.length > 0 && active.every((target) => target.health === 'up') && active;
          },
          timeoutMs,
        )
        .catch(async (error: Error) => {
          const down = (await client.targets()).filter((target) => target.health !== 'up');
          throw new Error(
            `${error.message}; not up: ${down.map((target) => `${target.scrapeUrl} (${target.lastError || target.health})`).join(', ')}`,
          );
        }),
    stop: async () => {
      await stopProcess(started);
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}
