/**
 * The emulated phone's own least time to a first paint: an empty page (a title and one line of
 * text, no style, no script), served from the bench's process and loaded cold under the same
 * throttling as the routes. Its HTML arrives at its floor (floor.ts), yet its FCP comes much
 * later: the renderer's own work at the emulated CPU (committing the navigation, parsing, the
 * first style, layout with the system font, paint and the compositor's frame), which no page
 * can skip. A route's FCP ÷ floor is read against this page's.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { MeasuredRoute } from './routes';

export const EMPTY_PAGE_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Empty</title></head><body><p>Hello</p></body></html>';

/** The "route" the probe waits for on the empty page. */
export const EMPTY_PAGE_ROUTE: MeasuredRoute = { label: 'empty page', path: () => '/', selector: 'p' };

/** Serves EMPTY_PAGE_HTML at every path (uncompressed: it is smaller than its gzip), on 127.0.0.1:`port`. */
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
