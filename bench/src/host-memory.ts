/**
 * `npm run bench:host-memory -w bench [-- --server <main.js>] [--hosts N]`: does the host's
 * production server keep memory for every Host header a client makes up? It starts the built
 * server (host/dist-server/main.js, `npm run build -w host` first) on the development default,
 * where the runtime configuration follows the page's hostname, and asks for a gift page at N
 * distinct hostnames of 250 characters (10,000 by default), then at 1,500 distinct made-up
 * Host names of 8 kB. Before and after each, it prints the server's resident memory and heap
 * in use, as its own /metrics reports them (prom-client's process_resident_memory_bytes and
 * nodejs_heap_size_used_bytes), and the statuses it answered.
 */
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from 'testbed/free-port';
import { startServer, stopProcess } from 'testbed/process';
import { portsEnv } from 'testbed/topology-env';
import { CONSOLE, defineCommand, exitStatusOf, refuse, runMain, type CommandLine } from '../../deploy/command-line';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_SERVER = join(ROOT, 'host', 'dist-server', 'main.js');
const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
/** Requests in flight at once. */
const CONCURRENCY = 16;
/** The measured load: this many Host names of this many bytes. */
const LONG_HOSTS = 1_500;
const LONG_HOST_BYTES = 8 * 1024;
/** Left for the server's collector before memory is read: a bench figure, never a test's assertion. */
const SETTLE_MS = 2_000;

const USAGE = `Usage: npm run bench:host-memory -w bench -- [--server <main.js>] [--hosts N]

  --server <main.js>   the host's server build to run (default: the built one)
  --hosts N            how many distinct 250-character hostnames to ask at (default 10000)
  -h, --help           this text`;

const OPTIONS = { server: { type: 'string' }, hosts: { type: 'string' } } as const;

interface Options {
  server: string;
  hosts: number;
}

export function optionsOf({ values, positionals }: CommandLine<typeof OPTIONS>): Options {
  if (positionals.length > 0) refuse(`unexpected argument ${positionals[0]}`);
  const hosts = values.hosts ?? '10000';
  if (!/^\d+$/.test(hosts)) refuse(`--hosts takes a count such as 10000, got "${hosts}"`);
  return { server: values.server ? resolve(values.server) : DEFAULT_SERVER, hosts: Number(hosts) };
}

/** A valid hostname of 250 characters, distinct for each `n`: four labels of at most 63. */
export function validHostname(n: number): string {
  const head = `h${n}-`;
  const labels = [`${head}${'a'.repeat(62 - head.length)}`, 'b'.repeat(62), 'c'.repeat(62), 'example'];
  const name = labels.join('.');
  return `${'d'.repeat(250 - name.length - 1)}.${name}`;
}

/** A Host name of LONG_HOST_BYTES, distinct for each `n`: one label far beyond any DNS limit. */
function longHostname(n: number): string {
  const head = `l${n}-`;
  return `${head}${'x'.repeat(LONG_HOST_BYTES - head.length)}.example`;
}

function get(agent: Agent, port: number, host: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path: `/gifts/${ID}`,
        headers: { host: `${host}:3000`, accept: 'text/html' },
        // A page's policy names the hostname several times: its headers outgrow Node's default 16 kB.
        maxHeaderSize: 1024 * 1024,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolvePromise(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every request, CONCURRENCY at a time; the count of each status. */
async function ask(port: number, hosts: (n: number) => string, count: number): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const status = await get(agent, port, hosts(next++));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return statuses;
}

async function memory(metricsPort: number): Promise<{ rss: number; heapUsed: number }> {
  await delay(SETTLE_MS);
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: value('process_resident_memory_bytes'), heapUsed: value('nodejs_heap_size_used_bytes') };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const statusList = (statuses: Map<number, number>) =>
  [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');

async function main(options: Options): Promise<void> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const server = await startServer({
    name: 'the host server',
    command: process.execPath,
    args: [options.server],
    cwd: ROOT,
    // The development default (no remote or API URL set): the configuration follows the hostname.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...portsEnv({ host: port }),
      LISTEN_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      REMOTE_REFRESH_MS: '0',
    },
    output: 'pipe',
    exitWithParent: true,
    health: `http://127.0.0.1:${port}/healthz`,
  });
  try {
    console.log(`host server: ${options.server}`);
    await ask(port, () => 'localhost', 200);
    const rows: Array<[string, { rss: number; heapUsed: number }, string]> = [
      ['after 200 requests at localhost', await memory(metricsPort), ''],
    ];
    const valid = await ask(port, validHostname, options.hosts);
    rows.push([
      `after ${options.hosts} distinct 250-character hostnames`,
      await memory(metricsPort),
      statusList(valid),
    ]);
    const long = await ask(port, longHostname, LONG_HOSTS);
    rows.push([`after ${LONG_HOSTS} distinct 8 kB Host names`, await memory(metricsPort), statusList(long)]);
    for (const [label, { rss, heapUsed }, statuses] of rows) {
      console.log(`${label.padEnd(48)} RSS ${mb(rss).padStart(9)}  heap used ${mb(heapUsed).padStart(9)}  ${statuses}`);
    }
  } finally {
    await stopProcess(server);
  }
}

if (require.main === module) {
  runMain(
    defineCommand({
      name: 'bench:host-memory',
      summary: "whether the host's server keeps memory for every Host header a client makes up",
      usage: USAGE,
      options: OPTIONS,
      run: (line) => exitStatusOf('bench:host-memory', main(optionsOf(line))),
    }),
    CONSOLE,
  );
}
