/**
 * The one-machine rehearsal as a team runs it: `npm run staging` on the worker's ports with one
 * API process answers at every URL it prints (the site's page, the host's server, the API's
 * readiness, Prometheus ready and scraping every target, each remote's deploy folder served by
 * nginx); the sample it prints is a real gift and redeem session whose pages answer; `npm run
 * traffic` sends a few visitors whose pages' telemetry the API accepts (its
 * giftbox_telemetry_batches_total{result="accepted"} rises); Ctrl-C (SIGINT
 * to its process group, as a terminal sends it) stops every process it started, leaving nothing
 * listening on its ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPortInUse } from 'testbed/free-port';
import { REMOTE_NAMES } from 'shared/remotes';
import { npmCommand } from '../support/build-variants';
import { expect, test } from '../support/fixtures';
import { FIXED_PORTS_BASE, LOG_DIR, ROOT_DIR, TMP_DIR } from '../support/test-env';

// Staging is servers of its own, on the worker's fixed ports (FIXED_PORTS_BASE), which no server
// of the suite's takes: the worker's servers and shared topologies stay up, idle, for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

const DIR = join(TMP_DIR, 'staging');
const ID = '[A-Za-z0-9_-]{24}';

interface StagingInfo {
  origin: string;
  hostServer: string;
  apis: string[];
  prometheus: string;
  remotes: Record<string, string>;
}

/** `npm run staging -- …` in a process group of its own, as a terminal runs it; its output so far. */
function startStaging(): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn(
    'npm',
    ['run', 'staging', '--', '--dir', DIR, '--base-port', String(FIXED_PORTS_BASE), '--api', '1'],
    {
      cwd: ROOT_DIR,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/staging: ready in/.test(output)) resolve();
      });
    child.once('exit', (code) => reject(new Error(`npm run staging exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, output: () => output, ready };
}

async function status(url: string): Promise<number> {
  return (await fetch(url, { signal: AbortSignal.timeout(10_000) })).status;
}

/** The API's accepted telemetry batches, read from Prometheus. */
async function acceptedBatches(prometheus: string): Promise<number> {
  const query = encodeURIComponent('sum(giftbox_telemetry_batches_total{result="accepted"})');
  const body = (await (await fetch(`${prometheus}/api/v1/query?query=${query}`)).json()) as {
    data: { result: { value: [number, string] }[] };
  };
  return Number(body.data.result[0]?.value[1] ?? 0);
}

test('npm run staging answers at every URL it prints, its sample pages open, traffic telemetry is accepted, and Ctrl-C leaves nothing listening', async () => {
  test.setTimeout(300_000);
  const staging = startStaging();
  // Closed once every process holding its output has gone: npm, and staging's own node under it.
  const closed = new Promise<void>((resolve) => staging.child.once('close', () => resolve()));
  try {
    await staging.ready;
    const info = JSON.parse(readFileSync(join(DIR, 'staging.json'), 'utf8')) as StagingInfo;
    const printed = staging.output();
    for (const url of [info.origin, `${info.hostServer}/healthz`, `${info.apis[0]}/api/health/ready`, info.prometheus])
      expect(printed).toContain(url);

    expect(await status(`${info.origin}/`)).toBe(200);
    expect(await status(`${info.hostServer}/healthz`)).toBe(200);
    expect(await status(`${info.apis[0]}/api/health/ready`)).toBe(200);
    expect(await status(`${info.prometheus}/-/ready`)).toBe(200);
    const targets = (await (await fetch(`${info.prometheus}/api/v1/targets`)).json()) as {
      data: { activeTargets: { health: string; labels: { job: string } }[] };
    };
    expect(targets.data.activeTargets.map((target) => target.labels.job).sort()).toEqual(
      expect.arrayContaining(['api', 'host', 'nginx', 'postgres']),
    );
    expect(targets.data.activeTargets.every((target) => target.health === 'up')).toBe(true);
    for (const remote of REMOTE_NAMES) {
      const latest = JSON.parse(readFileSync(join(info.remotes[remote] ?? '', 'builds', 'latest.json'), 'utf8')) as {
        id: string;
      };
      const served = await fetch(`${info.origin}/remotes/${remote}/builds/latest.json`);
      expect(served.status).toBe(200);
      expect(((await served.json()) as { id: string }).id).toBe(latest.id);
    }

    // The printed sample, and another one on demand: real pages the gate can open.
    const gift = new RegExp(`--path (/gifts/${ID})`).exec(printed)?.[1];
    const redeem = new RegExp(`--path (/redeem/${ID})`).exec(printed)?.[1];
    expect(gift && redeem).toBeTruthy();
    expect(await status(`${info.origin}${gift}`)).toBe(200);
    expect(await status(`${info.origin}${redeem}`)).toBe(200);
    const sample = await npmCommand(['run', 'staging', '--', 'sample', '--dir', DIR], {}, join(LOG_DIR, 'staging.log'));
    expect(sample.code).toBe(0);
    expect(sample.output).toMatch(new RegExp(`gifts +--path /gifts/${ID}`));
    expect(sample.output).toMatch(new RegExp(`redeem +--path /redeem/${ID}`));

    // A few visitors: their pages' telemetry is accepted, once Prometheus has scraped it.
    const before = await acceptedBatches(info.prometheus);
    const traffic = await npmCommand(
      ['run', 'traffic', '--', '--dir', DIR, '--visitors', '3', '--rate', '60'],
      {},
      join(LOG_DIR, 'staging.log'),
    );
    expect(traffic.code).toBe(0);
    expect(traffic.output).toContain('traffic: in all: started 3, finished 3 (3 reached a voucher)');
    await expect.poll(() => acceptedBatches(info.prometheus), { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 3);
  } finally {
    // Ctrl-C in a terminal: SIGINT to the foreground process group.
    if (staging.child.pid && staging.child.exitCode === null) process.kill(-staging.child.pid, 'SIGINT');
  }
  await closed;
  expect(staging.output()).toContain('staging: SIGINT: stopping every process…');
  expect(staging.output()).toContain('staging: stopped; nothing it started is listening');
  // Nothing runs there any more: sample and traffic no longer find an address to go to.
  expect(existsSync(join(DIR, 'staging.json'))).toBe(false);
  const base = FIXED_PORTS_BASE;
  const ports = [base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, base + 10, base + 30];
  for (const port of ports) expect(await isPortInUse(port)).toBe(false);
});
