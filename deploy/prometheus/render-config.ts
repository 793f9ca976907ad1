/**
 * `npm run prometheus-config [-- <output file>]`: deploy/prometheus/prometheus.yml.template with
 * the operator's addresses, read from GIFT_BOX_* environment variables through one schema
 * (docs/operations.md, "Monitoring and alerts"). Any bad or missing value stops it with a
 * message naming each variable; nothing is written then.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { EnvError, envSchema, list, matching, parseEnv, refusal, type Env, type Reader } from 'server/env';
import { REMOTE_NAMES } from 'shared/remotes';
import { TELEMETRY_WORST_CASE_SERIES } from 'shared/telemetry-bounds';
import { CONSOLE, runMain } from '../command-line';
import { defineConfigCommand } from '../emit-config';

export const TEMPLATE_FILE = resolve(__dirname, 'prometheus.yml.template');
/** The recording rules and alerts, read by Prometheus from where the repository lies unless told otherwise. */
export const RULES_DIR = resolve(__dirname, 'rules');

/**
 * The API's series besides its telemetry's: requests by method, route and status (a histogram),
 * the database pool, the game's counters and the Node process's own. A few hundred in practice.
 */
export const API_OTHER_SERIES = 10_000;
/** Samples one scrape of an API process may hold: its most series and a quarter more, in thousands. */
export const API_SAMPLE_LIMIT = Math.ceil(((TELEMETRY_WORST_CASE_SERIES + API_OTHER_SERIES) * 1.25) / 1000) * 1000;
/** Labels one API series may hold: it has at most 9 (its name, job, instance, part, four of its own, le). */
export const API_LABEL_LIMIT = 12;

const ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
const DURATION = /^[1-9]\d*(ms|s|m|h)$/;

/** `host:port`, the port within 65535; undefined when `entry` is not one. */
const address = (entry: string): string | undefined =>
  ADDRESS.test(entry) && Number(ADDRESS.exec(entry)?.[2]) <= 65535 ? entry : undefined;

/**
 * Comma-separated entries, each read by `item` (undefined: not valid); one refusal naming every
 * entry that is not valid, so that an operator mends the whole list at once.
 */
function entries<T>(item: (entry: string) => T | undefined, expected: string): Reader<T[]> {
  const read = list((entry) => ({ entry, value: item(entry) }));
  return (raw, name) => {
    const results = read(raw, name);
    const bad = results.filter((result) => result.value === undefined).map((result) => `"${result.entry}"`);
    if (bad.length > 0) throw refusal(name, `${expected}; not valid: ${bad.join(', ')}`);
    return results.map((result) => result.value as T);
  };
}

/** host:port addresses, comma-separated; `fallback` when unset (undefined: required). */
function addresses(fallback: string[] | undefined, means: string, example: string): Reader<string[]> {
  const read = entries(address, `host:port addresses, comma-separated (e.g. ${example})`);
  return (raw, name) => {
    const found = read(raw, name);
    if (found.length > 0) return found;
    if (fallback) return fallback;
    throw new EnvError(`${name} is not set: ${means}, host:port, comma-separated (e.g. ${example})`);
  };
}

export interface RemoteTarget {
  remote: string;
  address: string;
}

/** `<remote>=host:port`, comma-separated, each remote one of the registry's; none when unset. */
const remoteAddresses: Reader<RemoteTarget[]> = entries(
  (entry) => {
    const [remote = '', target = '', ...rest] = entry.split('=');
    const found = address(target.trim());
    if (!(REMOTE_NAMES as string[]).includes(remote.trim()) || rest.length > 0 || !found) return undefined;
    return { remote: remote.trim(), address: found };
  },
  `<remote>=host:port entries, comma-separated (e.g. ${REMOTE_NAMES[0]}=127.0.0.1:9301), each remote one of ${REMOTE_NAMES.join(', ')} and each address host:port`,
);

const duration = matching('15s', DURATION, 'a duration such as 15s or 1m');

const rulesDir: Reader<string> = (raw, name) => {
  if (raw === undefined) return RULES_DIR;
  if (!isAbsolute(raw) || /[\n"]/.test(raw)) throw refusal(name, 'an absolute path', raw);
  return raw.replace(/\/+$/, '') || '/';
};

/** The variables and what they mean, for the usage text and the documentation. */
export const VARIABLES = {
  GIFT_BOX_METRICS_API: {
    read: addresses(
      undefined,
      "the API processes' metrics listeners (their METRICS_PORT)",
      '10.0.0.5:9304,10.0.0.6:9304',
    ),
    means: "the API processes' metrics listeners (their METRICS_PORT), host:port, comma-separated (required)",
  },
  GIFT_BOX_METRICS_HOST: {
    read: addresses(['127.0.0.1:9300'], "the host's servers' metrics listeners", '127.0.0.1:9300'),
    means: "the host's servers' metrics listeners, host:port, comma-separated (default 127.0.0.1:9300)",
  },
  GIFT_BOX_METRICS_REMOTES: {
    read: remoteAddresses,
    means: "each remote's servers' metrics listeners, <remote>=host:port, comma-separated (none by default)",
  },
  GIFT_BOX_NGINX_EXPORTER: {
    read: addresses(['127.0.0.1:9113'], 'prometheus-nginx-exporter', '127.0.0.1:9113'),
    means: 'prometheus-nginx-exporter, host:port (default 127.0.0.1:9113)',
  },
  GIFT_BOX_POSTGRES_EXPORTER: {
    read: addresses(['127.0.0.1:9187'], 'prometheus-postgres-exporter', '127.0.0.1:9187'),
    means: 'prometheus-postgres-exporter, host:port (default 127.0.0.1:9187)',
  },
  GIFT_BOX_ALERTMANAGERS: {
    read: addresses([], 'Alertmanager', '127.0.0.1:9093'),
    means: "Alertmanager's addresses, host:port, comma-separated (none by default: alerts show in Prometheus only)",
  },
  GIFT_BOX_SCRAPE_INTERVAL: {
    read: duration,
    means: 'how often targets are scraped and rules evaluated (default 15s)',
  },
  GIFT_BOX_PROMETHEUS_RULES: {
    read: rulesDir,
    means: `the folder of the rule files, *.rules.yml (default ${RULES_DIR})`,
  },
} as const;

const schema = envSchema(
  Object.fromEntries(Object.entries(VARIABLES).map(([name, { read }]) => [name, read])) as {
    [K in keyof typeof VARIABLES]: (typeof VARIABLES)[K]['read'];
  },
);

/** A YAML flow sequence of addresses, each a JSON string (JSON is YAML). */
const flow = (list: readonly string[]) => `[${list.map((entry) => JSON.stringify(entry)).join(', ')}]`;

/** After `static_configs:`: one entry per remote, labelled with it. */
function remoteTargets(targets: readonly RemoteTarget[]): string {
  if (targets.length === 0) return ' []';
  const byRemote = new Map<string, string[]>();
  for (const { remote, address } of targets) byRemote.set(remote, [...(byRemote.get(remote) ?? []), address]);
  return [...byRemote]
    .map(([remote, list]) => `\n      - targets: ${flow(list)}\n        labels: { remote: ${remote} }`)
    .join('');
}

/** The configuration, from the operator's variables; throws one EnvError naming every bad variable. */
export function renderPrometheusConfig(env: Env, template = readFileSync(TEMPLATE_FILE, 'utf8')): string {
  const values = parseEnv(schema, env);
  const fills: Record<string, string> = {
    GIFT_BOX_SCRAPE_INTERVAL: values.GIFT_BOX_SCRAPE_INTERVAL,
    GIFT_BOX_PROMETHEUS_RULES: values.GIFT_BOX_PROMETHEUS_RULES,
    GIFT_BOX_ALERTMANAGER_TARGETS: flow(values.GIFT_BOX_ALERTMANAGERS),
    GIFT_BOX_API_TARGETS: flow(values.GIFT_BOX_METRICS_API),
    GIFT_BOX_API_SAMPLE_LIMIT: String(API_SAMPLE_LIMIT),
    GIFT_BOX_API_LABEL_LIMIT: String(API_LABEL_LIMIT),
    GIFT_BOX_HOST_TARGETS: flow(values.GIFT_BOX_METRICS_HOST),
    GIFT_BOX_REMOTE_TARGETS: remoteTargets(values.GIFT_BOX_METRICS_REMOTES),
    GIFT_BOX_NGINX_EXPORTER_TARGETS: flow(values.GIFT_BOX_NGINX_EXPORTER),
    GIFT_BOX_POSTGRES_EXPORTER_TARGETS: flow(values.GIFT_BOX_POSTGRES_EXPORTER),
  };
  return template.replace(/\$\{(GIFT_BOX_[A-Z_]+)\}/g, (whole, name: string) => {
    const value = fills[name];
    if (value === undefined) throw new EnvError(`the template names an unknown value ${whole}`);
    return value;
  });
}

function usage(): string {
  const lines = Object.entries(VARIABLES).map(([name, { means }]) => `  ${name.padEnd(28)} ${means}`);
  return `Usage: npm run prometheus-config [-- <output file>]\n\nReads:\n${lines.join('\n')}`;
}

export const prometheusConfigCommand = defineConfigCommand({
  name: 'prometheus-config',
  summary: "write Prometheus's configuration",
  usage: usage(),
  next: 'check it with promtool check config, then reload Prometheus',
  render: () => renderPrometheusConfig(process.env),
  problemsOf: (error) => (error instanceof EnvError ? error.message.split('\n') : undefined),
});

if (require.main === module) runMain(prometheusConfigCommand, CONSOLE);
