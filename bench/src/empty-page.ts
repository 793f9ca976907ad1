/**
 * The emulated phone's least time to a first paint: an empty page, loaded cold under the same
 * throttling. Its FCP is the renderer's own work, which no page can skip.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { MeasuredRoute } from './routes';

export const EMPTY_PAGE_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Empty</title></head><body><p>Hello</p></body></html>';

export const EMPTY_PAGE_ROUTE: MeasuredRoute = { label: 'empty page', path: () => '/', selector: 'p' };

/** Uncompressed: it is smaller than its gzip. */
export async function serveEmptyPage(port: number): Promise<Server> {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(EMPTY_PAGE_HTML);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}
