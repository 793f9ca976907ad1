/** @jest-environment node */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

describe("the remote's server, started with a bad environment", () => {
  it('stops before it listens, naming every bad variable at once', () => {
    const run = spawnSync(TSX, [join(__dirname, 'main.ts')], {
      env: { ...process.env, REMOTE_GIFTS_PORT: 'x', STATIC_ROOT: 'relative/dist', TRUST_PROXY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      '[remote-gifts] cannot start: REMOTE_GIFTS_PORT must be a port number between 1 and 65535, got "x"\n' +
        'STATIC_ROOT must be an absolute path, got "relative/dist"',
    );
    expect(run.stdout).not.toContain('listening');
  }, 60_000);
});

/** A port nothing listens on right now (the system picks it). */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

describe("the remote's server with METRICS_PORT", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'remote-gifts-metrics-'));
    mkdirSync(join(folder, 'builds'));
    writeFileSync(join(folder, 'builds', 'latest.json'), '{"id":"b1","timestamp":1}\n');
    writeFileSync(join(folder, 'remoteEntry.js'), 'var gifts = 1;\n');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('counts its answers by status on its own metrics listener, labelled gifts; its public port has no /metrics', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        REMOTE_GIFTS_PORT: String(port),
        LISTEN_HOST: '127.0.0.1',
        STATIC_ROOT: folder,
        METRICS_PORT: String(metricsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const closed = new Promise((resolve) => child.once('close', resolve));
    let output = '';
    /** The log lines on stdout so far, parsed; each waiter is told when more arrive. */
    const logLines = () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const waiters = new Set<() => void>();
    const logged = (matches: (line: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const check = () => {
          const found = logLines().find(matches);
          if (found) resolve(found);
        };
        waiters.add(check);
        check();
        void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk;
        for (const check of waiters) check();
      });
    }
    // Ready once it says where its metrics are: that is logged after both listeners are up.
    await logged((line) => line.msg === `metrics on http://127.0.0.1:${metricsPort}/metrics`);
    try {
      const entry = await fetch(`http://127.0.0.1:${port}/remoteEntry.js`);
      expect(entry.status).toBe(200);
      await entry.arrayBuffer();
      const onPublicPort = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(onPublicPort.status).toBe(404);
      expect(await onPublicPort.text()).toBe('Not found');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      const lines = (await scrape.text()).split('\n');
      expect(lines.filter((line) => line.startsWith('giftbox_static_requests_total{'))).toEqual([
        'giftbox_static_requests_total{status="200",part="gifts"} 1',
        'giftbox_static_requests_total{status="404",part="gifts"} 1',
      ]);
      expect(lines).toContainEqual(expect.stringMatching(/^process_resident_memory_bytes\{part="gifts"\} \d+/));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Its log, all written by its exit: JSON lines named after it, one per request it answered,
    // the health check at debug only.
    await closed;
    expect(logLines().flatMap((line) => (line.req ? [line] : []))).toEqual([
      expect.objectContaining({
        level: 30,
        name: 'remote-gifts',
        req: expect.objectContaining({ url: '/remoteEntry.js' }),
      }),
      expect.objectContaining({ res: { statusCode: 404 }, req: expect.objectContaining({ url: '/metrics' }) }),
    ]);
    // Both listeners are gone with it.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  }, 60_000);
});
