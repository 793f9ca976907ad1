/**
 * The process serves its metrics on a listener of its own (METRICS_PORT, loopback by default),
 * never on the API's port, and closes it when it stops.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from 'testbed/free-port';
import { type ApiProcess, runToExit, startApi } from './support/api-process';

/** The value of the exposition's series `name` that has `labels` (and `part="api"`), in whatever order. */
function valueIn(text: string, name: string, labels: string[]): string | undefined {
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith(`${name}{`) && [...labels, 'part="api"'].every((label) => candidate.includes(label)),
    );
  return line?.split(' ').at(-1);
}

let api: ApiProcess | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

it('serves GET /metrics on METRICS_PORT with the process’s and the requests’ series, and not on the API’s port', async () => {
  const metricsPort = await freePort();
  api = await startApi({ PGLITE_DATA_DIR: 'memory://', METRICS_PORT: String(metricsPort) });
  expect((await fetch(`${api.baseUrl}/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);

  const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(scrape.status).toBe(200);
  expect(scrape.headers.get('content-type')).toContain('text/plain');
  const text = await scrape.text();
  expect(text).toContain('process_cpu_user_seconds_total{part="api"}');
  expect(
    valueIn(text, 'giftbox_http_request_duration_seconds_count', ['route="/api/gifts/:giftId"', 'status="404"']),
  ).toBe('1');
  expect(valueIn(text, 'giftbox_telemetry_batches_total', ['result="accepted"'])).toBe('0');

  expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(404);

  expect(await api.stop()).toBe(0);
  api = undefined;
  await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
});

it('refuses to start when METRICS_PORT is taken, naming it, before its database is touched', async () => {
  const taken = createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
  const dataDir = join(mkdtempSync(join(tmpdir(), 'metrics-taken-')), 'pglite');
  try {
    const exited = await runToExit({ PGLITE_DATA_DIR: dataDir, METRICS_PORT: String(port) });
    expect(exited.code).toBe(1);
    expect(exited.output).toContain(`cannot serve metrics on 127.0.0.1:${port} (METRICS_PORT, METRICS_HOST)`);
    // A configuration error changes nothing: no data folder was locked, created or migrated.
    expect(existsSync(dataDir)).toBe(false);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dirname(dataDir), { recursive: true, force: true });
  }
});
