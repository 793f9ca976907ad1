import { DeploymentPoller, fetchDeploymentFile, MAX_DEPLOYMENT_FILE_BYTES } from './deployment-poller';
import { listenAnswering, type AnsweringServer } from './testing/answering-server';

let server: AnsweringServer;
let base: string;
let answers: AnsweringServer['answers'];

beforeAll(async () => {
  server = await listenAnswering();
  ({ base, answers } = server);
});
afterAll(() => server.close());

describe('fetchDeploymentFile', () => {
  it('reads the deployment and when it was written', async () => {
    const written = 'Sun, 06 Dec 2026 10:00:00 GMT';
    answers.set('/latest.json', (res) =>
      res.writeHead(200, { 'last-modified': written }).end('{"id":"b1","timestamp":1}'),
    );
    await expect(fetchDeploymentFile(`${base}/latest.json`, 3_000)).resolves.toEqual({
      state: expect.objectContaining({ id: 'b1' }),
      lastModified: written,
    });
  });

  it('refuses a file that names no build, and one larger than a deployment file', async () => {
    answers.set('/empty.json', (res) => res.end('{}'));
    answers.set('/huge.json', (res) => res.end(`{"id":"b1","pad":"${'x'.repeat(MAX_DEPLOYMENT_FILE_BYTES)}"}`));
    await expect(fetchDeploymentFile(`${base}/empty.json`, 3_000)).rejects.toThrow('names no build id');
    await expect(fetchDeploymentFile(`${base}/huge.json`, 3_000)).rejects.toThrow('is larger than');
  });
});

describe('DeploymentPoller', () => {
  it('shares a read under way, and tells each failure with the reason before it, and a recovery once', async () => {
    const failures: Array<[string, string | undefined]> = [];
    let recoveries = 0;
    let reads = 0;
    let outcome: Error | undefined = new Error('down');
    let release = () => {};
    const poller = new DeploymentPoller({
      parts: ['a'],
      read: async () => {
        reads += 1;
        await new Promise<void>((resolve) => (release = resolve));
        if (outcome) throw outcome;
      },
      onFailure: (_part, reason, previous) => failures.push([reason, previous]),
      onRecovery: () => (recoveries += 1),
    });
    const first = poller.refresh('a');
    expect(poller.refresh('a')).toBe(first);
    release();
    await first;
    const second = poller.refreshAll();
    release();
    await second;
    outcome = undefined;
    const third = poller.refresh('a');
    release();
    await third;
    const fourth = poller.refresh('a');
    release();
    await fourth;
    expect(reads).toBe(4);
    expect(failures).toEqual([
      ['down', undefined],
      ['down', 'down'],
    ]);
    expect(recoveries).toBe(1);
    expect(poller.reading('a')).toBeUndefined();
  });
});
