import { getBoundedJson } from './bounded-fetch';
import { listenAnswering, type AnsweringServer } from './testing/answering-server';

let server: AnsweringServer;
let base: string;
let answers: AnsweringServer['answers'];

beforeAll(async () => {
  server = await listenAnswering();
  ({ base, answers } = server);
});
afterAll(() => server.close());

describe('getBoundedJson', () => {
  it('reads a JSON document within its bound', async () => {
    answers.set('/ok.json', (res) => res.end('{"id":"b1"}'));
    await expect(getBoundedJson(`${base}/ok.json`, 3_000, 64)).resolves.toEqual({ id: 'b1' });
  });

  it('refuses a body larger than its bound, told by its Content-Length or not', async () => {
    answers.set('/told.json', (res) => res.writeHead(200, { 'content-length': 100 }).end('x'.repeat(100)));
    answers.set('/untold.json', (res) => {
      res.write('x'.repeat(50));
      res.end('x'.repeat(50));
    });
    await expect(getBoundedJson(`${base}/told.json`, 3_000, 64)).rejects.toThrow('is larger than 64 bytes');
    await expect(getBoundedJson(`${base}/untold.json`, 3_000, 64)).rejects.toThrow('is larger than 64 bytes');
  });

  it('refuses a failed answer and a body that is not JSON', async () => {
    answers.set('/text', (res) => res.end('not json'));
    await expect(getBoundedJson(`${base}/missing.json`, 3_000, 64)).rejects.toThrow('answered 404');
    await expect(getBoundedJson(`${base}/text`, 3_000, 64)).rejects.toThrow('is not JSON');
  });

  it('gives up on an answer that does not come within its timeout', async () => {
    answers.set('/stalled.json', (res) => res.writeHead(200).flushHeaders());
    await expect(getBoundedJson(`${base}/stalled.json`, 50, 64)).rejects.toThrow();
  });
});
