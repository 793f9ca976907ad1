/** @jest-environment node */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { GIFT_ID, aGiftView } from 'shared/testing/api-fixtures';
import { readPageData } from './data-pages';

const GIFT = aGiftView();

/** An API on loopback: what it answers, and the headers of every request it got. */
interface FakeApi {
  url: string;
  seen: IncomingHttpHeaders[];
  answer: (res: ServerResponse) => void;
}

const servers: Server[] = [];

async function startApi(answer: FakeApi['answer']): Promise<FakeApi> {
  const api = { seen: [], answer } as unknown as FakeApi;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    api.seen.push(req.headers);
    api.answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

const VISITOR = { Cookie: 'gb_visitor=v1', 'X-Forwarded-For': '203.0.113.7, 127.0.0.1', Accept: 'application/json' };

describe("a data page's data from the API", () => {
  it("is the API's answer for the visitor: their cookie and address go with it, its cookies come back", async () => {
    const api = await startApi(json(200, GIFT, { 'Set-Cookie': 'gb_visitor=v1; Path=/; HttpOnly' }));
    const data = await readPageData('gift', GIFT_ID, VISITOR, { apiUrl: `${api.url}/`, timeoutMs: 2_000 });
    expect(data).toEqual({
      kind: 'found',
      query: { queryKey: ['api', 'gifts', GIFT_ID], data: GIFT },
      setCookies: ['gb_visitor=v1; Path=/; HttpOnly'],
    });
    expect(api.seen[0]).toMatchObject({ cookie: 'gb_visitor=v1', 'x-forwarded-for': '203.0.113.7, 127.0.0.1' });
  });

  it('is a 404 when the API has no such gift', async () => {
    const api = await startApi(
      json(404, { statusCode: 404, error: 'Not Found', message: 'This gift does not exist.' }),
    );
    expect(await readPageData('gift', GIFT_ID, VISITOR, { apiUrl: api.url, timeoutMs: 2_000 })).toEqual({
      kind: 'not-found',
      setCookies: [],
    });
  });

  it('is unavailable, never an error, when the API fails, refuses, answers nonsense or is down', async () => {
    for (const answer of [
      json(500, { message: 'boom' }),
      json(429, { message: 'Too many requests' }),
      json(200, { giftId: GIFT_ID }),
    ]) {
      const api = await startApi(answer);
      expect(await readPageData('gift', GIFT_ID, VISITOR, { apiUrl: api.url, timeoutMs: 2_000 })).toMatchObject({
        kind: 'unavailable',
      });
    }
    const down = await startApi(json(200, GIFT));
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await readPageData('gift', GIFT_ID, VISITOR, { apiUrl: down.url, timeoutMs: 2_000 })).toMatchObject({
      kind: 'unavailable',
    });
  });

  it('is unavailable when the API has not answered within the bound', async () => {
    // Holds every request unanswered.
    const api = await startApi(() => undefined);
    expect(await readPageData('gift', GIFT_ID, VISITOR, { apiUrl: api.url, timeoutMs: 100 })).toEqual({
      kind: 'unavailable',
      reason: 'no answer within 100 ms',
    });
  });
});
