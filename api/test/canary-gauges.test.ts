/**
 * The API exports each part's running canary as read from its deployment: when it started and
 * when it was last judged, only for the canary running now, from the parts' build files on a
 * real HTTP server on loopback.
 */
import { type Registry } from 'prom-client';
import { CANARY_GAUGE_NAMES } from 'shared/telemetry-bounds';
import { PARTS } from 'shared/telemetry';
import { harnessFor } from './support/harness';
import { seriesOf } from './support/metrics';
import { startPartsServer, type PartsServer } from './support/parts-server';

const harness = harnessFor('postgres');
let parts: PartsServer;
let metrics: Registry;

beforeEach(async () => {
  parts = await startPartsServer();
  for (const part of PARTS) parts.publish(part, `${part}-1`);
  parts.publish('gifts', 'g1', undefined, {
    canary: { id: 'g2', percent: 50, since: 1_700_000_000_000, judgedAt: 1_700_000_090_000, judgedBy: 'release' },
  });
  parts.publish('content', 'c1', undefined, { canary: { id: 'c2', percent: 10, since: 1_700_000_030_000 } });
  ({ metrics } = await harness.start({ builds: { sources: parts.sources, pollMs: 20 } }));
});
afterEach(async () => {
  await parts.close();
});

const gauge = async (name: string) =>
  (await seriesOf(metrics, name)).map(({ labels, value }) => ({ remote: labels.remote, build: labels.build, value }));

/** Waits until the API has read the deployments again and `name` shows `expected`. */
async function until(name: string, expected: unknown): Promise<void> {
  while (JSON.stringify(await gauge(name)) !== JSON.stringify(expected))
    await new Promise((resolve) => setTimeout(resolve, 20));
}

it('exports when each running canary started and was last judged, and nothing of one never judged', async () => {
  expect(await gauge(CANARY_GAUGE_NAMES.started)).toEqual([
    { remote: 'gifts', build: 'g2', value: 1_700_000_000 },
    { remote: 'content', build: 'c2', value: 1_700_000_030 },
  ]);
  expect(await gauge(CANARY_GAUGE_NAMES.judged)).toEqual([{ remote: 'gifts', build: 'g2', value: 1_700_000_090 }]);
});

it('keeps no series of a canary once it is promoted or aborted', async () => {
  parts.publish('gifts', 'g2', undefined, { previous: 'g1' });
  await until(CANARY_GAUGE_NAMES.started, [{ remote: 'content', build: 'c2', value: 1_700_000_030 }]);
  expect(await gauge(CANARY_GAUGE_NAMES.judged)).toEqual([]);
  expect(await metrics.metrics()).not.toContain('build="g2"');
});
