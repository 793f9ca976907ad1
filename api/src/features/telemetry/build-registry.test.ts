/** The registry reads the parts' deployments over HTTP, from a real server on loopback. */
import { startPartsServer, type PartsServer } from '../../../test/support/parts-server';
import { PARTS } from 'shared/telemetry';
import { BuildRegistry, MAX_BUILD_FILE_BYTES, REREAD_MIN_MS } from './build-registry';

let parts: PartsServer;
let now: number;
let log: { info: jest.Mock; warn: jest.Mock };
let registry: BuildRegistry | undefined;

beforeEach(async () => {
  parts = await startPartsServer();
  now = 1_000_000;
  log = { info: jest.fn(), warn: jest.fn() };
});
afterEach(async () => {
  registry?.stop();
  await parts.close();
});

function start(pollMs = 60_000, timeoutMs?: number): Promise<BuildRegistry> {
  registry = new BuildRegistry({ sources: parts.sources, pollMs, log, clock: () => now, timeoutMs });
  return registry.start().then(() => registry as BuildRegistry);
}

it('knows the build each part’s deployment makes current, once started', async () => {
  parts.publish('host', 'h3', ['h3', 'h2', 'h1']);
  parts.publish('gifts', 'g2');
  parts.publish('redeem', 'r1', ['r1']);
  parts.publish('content', 'c9', ['c9', 'c8']);

  const builds = await start();

  expect(builds.known('host')).toEqual(['h3']);
  expect(builds.known('gifts')).toEqual(['g2']);
  expect(builds.label('host', 'h3')).toBe('h3');
  // A build the deployment no longer names is not a label, though a deploy published it once.
  expect(builds.label('host', 'h1')).toBe('other');
  expect(builds.label('content', 'c8')).toBe('other');
  // A build of another part is not this part's.
  expect(builds.label('gifts', 'h3')).toBe('other');
  expect(builds.label('gifts', 'unknown')).toBe('unknown');
  expect(log.warn).not.toHaveBeenCalled();
});

it('forgets a build once the deployment names it no more: at most three build ids per part', async () => {
  parts.publish('gifts', 'g2', undefined, { previous: 'g1', canary: { id: 'g3', percent: 10, since: 1 } });
  const builds = await start();
  expect(builds.known('gifts')).toEqual(['g2', 'g3', 'g1']);

  parts.publish('gifts', 'g3', undefined, { previous: 'g2' });
  await builds.read('gifts');
  expect(builds.known('gifts')).toEqual(['g3', 'g2']);
  expect(builds.label('gifts', 'g1')).toBe('other');
});

it(`stops reading a build file past ${MAX_BUILD_FILE_BYTES / 1024} KiB, however long the answer goes on`, async () => {
  for (const part of PARTS) parts.publish(part, `${part}-1`);
  const builds = await start(60_000, 60_000);
  const flood = parts.flood('gifts');
  await builds.read('gifts');

  expect(builds.known('gifts')).toEqual(['gifts-1']);
  expect(log.warn).toHaveBeenCalledTimes(1);
  expect(log.warn.mock.calls[0]?.[0]).toMatchObject({
    part: 'gifts',
    reason: expect.stringContaining(`larger than ${MAX_BUILD_FILE_BYTES} bytes`),
  });
  // The answer is dropped, not read on until the timeout: the server sees its connection closed.
  await flood.closed;
});

it(`reads a part again when a page names a build it does not know, at most every ${REREAD_MIN_MS / 1000} s`, async () => {
  parts.publish('redeem', 'r1');
  const builds = await start();
  parts.publish('redeem', 'r2');
  const reads = () => parts.requests.filter((path) => path === '/redeem/builds/latest.json').length;
  expect(reads()).toBe(1);

  // Just deployed: counted as other meanwhile, and the part is read again.
  now += REREAD_MIN_MS;
  expect(builds.label('redeem', 'r2')).toBe('other');
  await builds.read('redeem');
  expect(builds.label('redeem', 'r2')).toBe('r2');
  expect(reads()).toBe(2);

  // Made-up ids do not make it read the part more often.
  expect(builds.label('redeem', 'made-up-1')).toBe('other');
  now += REREAD_MIN_MS - 1;
  expect(builds.label('redeem', 'made-up-2')).toBe('other');
  await builds.read('redeem');
  expect(reads()).toBe(3);
});

it('keeps what it knew while a part cannot be read, saying so once, and once when it can again', async () => {
  for (const part of ['host', 'gifts', 'redeem'] as const) parts.publish(part, `${part}-1`);
  parts.publish('content', 'c1', undefined, { previous: 'c0' });
  const builds = await start();
  expect(log.warn).not.toHaveBeenCalled();
  parts.fail('content', 500);

  await builds.read('content');
  await builds.read('content');
  expect(builds.known('content')).toEqual(['c1', 'c0']);
  expect(log.warn).toHaveBeenCalledTimes(1);
  expect(log.warn.mock.calls[0]?.[0]).toMatchObject({ part: 'content', known: 2 });
  expect(log.warn.mock.calls[0]?.[0].reason).toContain('answered 500');

  parts.publish('content', 'c2', undefined, { previous: 'c1' });
  await builds.read('content');
  await builds.read('content');
  expect(builds.known('content')).toEqual(['c2', 'c1']);
  expect(log.warn).toHaveBeenCalledTimes(1);
  expect(log.info).toHaveBeenCalledWith({ part: 'content' }, expect.stringContaining('can be read again'));
});

it('gives up on a part that never answers after its timeout, keeping what it knew', async () => {
  parts.publish('gifts', 'g1');
  const builds = await start(60_000, 200);
  parts.fail('gifts', 'never');
  await builds.read('gifts');
  expect(builds.known('gifts')).toEqual(['g1']);
  expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ part: 'gifts' }), expect.any(String));
});

it('ignores ids no deploy could have published', async () => {
  parts.publish('gifts', 'g1', undefined, {
    previous: '../etc',
    canary: { id: 'x'.repeat(200), percent: 5, since: 1 },
  });
  const builds = await start();
  expect(builds.known('gifts')).toEqual(['g1']);
});

it('reads nothing with pollMs 0: every build is other', async () => {
  parts.publish('host', 'h1');
  const builds = await start(0);
  expect(builds.label('host', 'h1')).toBe('other');
  expect(parts.requests).toEqual([]);
});

it('knows the canary and the build before the current one that a deployment names', async () => {
  parts.publish('gifts', 'g2', ['g2', 'g1'], {
    previous: 'g1',
    canary: { id: 'g3-canary', percent: 10, since: 1 },
  });
  parts.publish('redeem', 'r2', undefined, { previous: 'r1' });

  const builds = await start();

  expect(builds.known('gifts')).toEqual(['g2', 'g3-canary', 'g1']);
  expect(builds.label('gifts', 'g3-canary')).toBe('g3-canary');
  expect(builds.label('redeem', 'r1')).toBe('r1');
  // A canary of another part is not this part's.
  expect(builds.label('content', 'g3-canary')).toBe('other');
});

it('learns a canary started since the last read before a batch naming it is labelled; made-up ids share one read', async () => {
  parts.publish('content', 'c1');
  const builds = await start();
  const reads = () => parts.requests.filter((path) => path === '/content/builds/latest.json').length;
  // A canary starts just after a read, and a page falls back from it at once: its one event names it.
  parts.publish('content', 'c1', undefined, { canary: { id: 'c2', percent: 10, since: now } });
  await builds.learn([{ part: 'content', build: 'c2' }]);
  expect(builds.label('content', 'c2')).toBe('c2');
  expect(reads()).toBe(2);

  // Known builds ask for nothing; batches of made-up ids at once share one read.
  await builds.learn([{ part: 'content', build: 'c1' }]);
  expect(reads()).toBe(2);
  now += REREAD_MIN_MS;
  await Promise.all([
    builds.learn([{ part: 'content', build: 'made-up-1' }]),
    builds.learn([{ part: 'content', build: 'made-up-2' }]),
  ]);
  expect(reads()).toBe(3);
  expect(builds.label('content', 'made-up-1')).toBe('other');
});

it('knows each part’s running canary, keeps it while the part cannot be read, and forgets it once it ends', async () => {
  parts.publish('gifts', 'g1', undefined, { canary: { id: 'g2', percent: 20, since: 5, judgedAt: 9 } });
  parts.publish('content', 'c1');
  const builds = await start();
  expect(builds.canaries()).toEqual([{ part: 'gifts', id: 'g2', percent: 20, since: 5, judgedAt: 9 }]);

  parts.fail('gifts', 503);
  await builds.read('gifts');
  expect(builds.canaries()).toEqual([{ part: 'gifts', id: 'g2', percent: 20, since: 5, judgedAt: 9 }]);

  parts.publish('gifts', 'g1');
  await builds.read('gifts');
  expect(builds.canaries()).toEqual([]);
});
