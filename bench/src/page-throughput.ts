/**
 * The host's page throughput: autocannon (closed loop, as bench/api's `saturate`) against the
 * host's server for a page, then against a bare Node server (bare-page-server.ts) sending the
 * answer the host's server gave for it, the same status, headers and bytes, on the same
 * machine, each after a one-second warm-up that is not counted, in rounds taking turns; the
 * ratio says how much of a bare server's rate the host's server leaves.
 * autocannon sends no Accept-Encoding, so both send the page uncompressed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startServer, stopProcess } from 'testbed/process';
import { saturate } from '../api/load';
import { logFile, WORK_DIR } from './paths';

export interface PageThroughput {
  path: string;
  bytes: number;
  hostRps: number;
  bareRps: number;
  /** Each round's host ÷ bare, the two measured back to back. */
  roundRatios: number[];
  failures: number;
}

/** Headers that belong to one connection or one moment, which the bare server leaves to Node. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The host's answer for `url`, as autocannon gets it (no Accept-Encoding). */
function record(url: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/html' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined || PER_RESPONSE.has(name)) continue;
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The bare server for a recorded page, on `port` (the bench's range). */
function startBare(file: string, port: number) {
  return startServer({
    name: 'the bare page server',
    command: process.execPath,
    args: ['--import', 'tsx', join(__dirname, 'bare-page-server.ts')],
    cwd: __dirname,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', BENCH_PORT: String(port), BENCH_PAGE_FILE: file },
    output: logFile('bare-page-server'),
    exitWithParent: true,
    health: `http://127.0.0.1:${port}/healthz`,
    readyTimeoutMs: 30_000,
  });
}

/** A short run first, not counted: connections opened, code paths warmed, for both servers alike. */
const WARM_UP_SECONDS = 1;

export interface ThroughputLoad {
  connections: number;
  /** Measured seconds per server, split into `rounds`. */
  seconds: number;
  /**
   * Host and bare take turns (the first alternating), so that a load that comes and goes on a
   * shared machine falls on both.
   */
  rounds: number;
}

export async function pageThroughput(
  origin: string,
  barePort: number,
  path: string,
  options: ThroughputLoad,
): Promise<PageThroughput> {
  const { rounds } = options;
  const page = await record(`${origin}${path}`);
  if (page.status !== 200) throw new Error(`${origin}${path} answered HTTP ${page.status}`);
  const dir = join(WORK_DIR, 'throughput');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}.json`);
  writeFileSync(
    file,
    JSON.stringify({ status: page.status, headers: page.headers, body: page.body.toString('base64') }),
  );
  // Started before either is measured, so that its start-up does not fall into the host's run.
  const bare = await startBare(file, barePort);
  try {
    const urls = { host: `${origin}${path}`, bare: `http://127.0.0.1:${barePort}${path}` };
    const warmUp = { connections: options.connections, seconds: WARM_UP_SECONDS };
    await saturate(urls.host, warmUp);
    await saturate(urls.bare, warmUp);
    const round = { connections: options.connections, seconds: Math.max(1, Math.round(options.seconds / rounds)) };
    const completed = { host: 0, bare: 0 };
    const roundRatios: number[] = [];
    let failures = 0;
    for (let index = 0; index < rounds; index += 1) {
      const order = index % 2 === 0 ? (['host', 'bare'] as const) : (['bare', 'host'] as const);
      const inRound = { host: 0, bare: 0 };
      for (const server of order) {
        const result = await saturate(urls[server], round);
        inRound[server] = result.completed;
        completed[server] += result.completed;
        failures += result.failures;
      }
      if (inRound.bare > 0) roundRatios.push(inRound.host / inRound.bare);
    }
    const seconds = round.seconds * rounds;
    return {
      path,
      bytes: page.body.length,
      hostRps: completed.host / seconds,
      bareRps: completed.bare / seconds,
      roundRatios,
      failures,
    };
  } finally {
    await stopProcess(bare);
  }
}
