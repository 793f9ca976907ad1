/**
 * The suite's page watcher (support/browser.ts) decides, once for every test, which failed
 * request is a failure of the site: a request the page itself cancelled (its document replaced
 * by a new one, or a fetch its own code aborted) is not; any other is. Checked on a plain page
 * of a loopback server of the test's own, whose `/hang` never answers.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { expect, test } from '../support/fixtures';
import { freePort } from '../support/production';

const PAGE = '<!doctype html><title>watch</title><h1>A page</h1>';

let server: Server;
let origin: string;
/** `/hang` requests held open, answered when the server closes. */
const hanging = new Set<ServerResponse>();
let hangs = 0;

test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = createServer((request, response) => {
    if (request.url?.startsWith('/broken')) {
      // Promises 100 bytes, sends 10, hangs up: an answer cut short, as a crashing server's.
      response.writeHead(200, { 'content-type': 'text/javascript', 'content-length': '100' });
      response.write('// 10 byte');
      setImmediate(() => response.socket?.destroy());
      return;
    }
    if (request.url?.startsWith('/hang')) {
      hangs += 1;
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** Waits until the server holds `count` requests for `/hang` in all. */
async function hangsReach(count: number): Promise<void> {
  await expect.poll(() => hangs, { message: `the server holds ${count} /hang requests` }).toBeGreaterThanOrEqual(count);
}

test('a fetch the page aborts, and requests a new document cancels, are no failure; a refused one is', async ({
  page,
  watch,
}) => {
  const start = hangs;
  await page.goto(`${origin}/`);

  // The page's own code gives up on a fetch (a query whose component unmounted).
  await page.evaluate((url) => {
    const controller = new AbortController();
    (window as Window & { __abort?: () => void }).__abort = () => controller.abort();
    void fetch(url, { signal: controller.signal }).catch(() => undefined);
  }, `${origin}/hang?fetch`);
  await hangsReach(start + 1);
  const aborted = page.waitForEvent('requestfailed');
  await page.evaluate(() => (window as Window & { __abort?: () => void }).__abort?.());
  await aborted;

  // A script and a fetch still on their way when the page loads a new document.
  await page.evaluate((url) => {
    const script = document.createElement('script');
    script.src = `${url}?script`;
    document.head.append(script);
    void fetch(`${url}?in-flight`).catch(() => undefined);
  }, `${origin}/hang`);
  await hangsReach(start + 3);
  const cancelled = Promise.all([page.waitForEvent('requestfailed'), page.waitForEvent('requestfailed')]);
  await page.goto(`${origin}/next`);
  await cancelled;

  expect(watch.cancelledRequests).toEqual(
    expect.arrayContaining([
      `GET ${origin}/hang?fetch: net::ERR_ABORTED`,
      `GET ${origin}/hang?script: net::ERR_ABORTED`,
      `GET ${origin}/hang?in-flight: net::ERR_ABORTED`,
    ]),
  );
  expect(watch.failedRequests).toEqual([]);

  // A request nothing answers is a failure, whatever the page does next.
  const closed = await freePort();
  const refused = page.waitForEvent('requestfailed');
  await page.evaluate((url) => void fetch(url).catch(() => undefined), `http://127.0.0.1:${closed}/`);
  await refused;
  expect(watch.failedRequests).toEqual([`GET http://127.0.0.1:${closed}/: net::ERR_CONNECTION_REFUSED`]);
});

test('a request whose server hangs up on it is a failure', async ({ page, watch }) => {
  await page.goto(`${origin}/`);
  const cutShort = page.waitForEvent('requestfailed');
  await page.evaluate((url) => {
    const script = document.createElement('script');
    script.src = url;
    document.head.append(script);
  }, `${origin}/broken`);
  const failure = (await cutShort).failure()?.errorText;
  expect(watch.cancelledRequests).toEqual([]);
  expect(watch.failedRequests).toEqual([`GET ${origin}/broken: ${failure}`]);
  expect(failure).not.toBe('net::ERR_ABORTED');
});
