/**
 * A loopback site standing in for a staging in traffic's own tests, with a gifts build that
 * throws: `/` names its builds in its inline configuration, `/game` shows the host's error page
 * (at once, or once Box 2 is played), every page sends its telemetry as its tab is hidden. `/game`
 * can hold its answer until `release()`, so a test has a visitor under way for as long as it needs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GameMode = 'error-page' | 'error-after-play';

export interface StandInSite {
  readonly url: string;
  /** Settles on the first request for `/game`: a visitor is in its journey. */
  readonly gameRequested: Promise<void>;
  /** Answers the held requests for `/game`, and those that follow. */
  release(): void;
  close(): Promise<void>;
}

const TELEMETRY = `<script>document.addEventListener('visibilitychange', () => {
  fetch('/api/telemetry', { method: 'POST', body: '{}', keepalive: true });
});</script>`;

const ERROR_PAGE = `<section role="alert" aria-labelledby="t" data-status="500"><p>500</p>
<h1 id="t">Internal Server Error</h1><p>this build of the gifts remote is broken</p></section>`;

const page = (main: string, head = '') =>
  `<!doctype html><html><head><title>stand-in</title>${head}</head><body><main>${main}</main>${TELEMETRY}</body></html>`;

const HOME = page(
  '<h1>Home</h1>',
  '<script type="application/json" id="gift-box-config">{"remoteBuilds":{"gifts":"throws-1"}}</script>',
);

const GAME: Record<GameMode, string> = {
  'error-page': page(ERROR_PAGE),
  'error-after-play': page(
    `<h1>Pick a box</h1><button type="button" onclick="document.querySelector('main').innerHTML = ${JSON.stringify(ERROR_PAGE).replace(/"/g, '&quot;')}">Box 2</button>`,
  ),
};

export async function startStandInSite(options: { game: GameMode; hold?: boolean }): Promise<StandInSite> {
  let held = options.hold ?? false;
  const waiting: (() => void)[] = [];
  let requested: () => void = () => undefined;
  const gameRequested = new Promise<void>((resolve) => (requested = resolve));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const send = (status: number, body = '') =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/api/telemetry') send(204);
    else if (path === '/') send(200, HOME);
    else if (path === '/game') {
      requested();
      if (held) waiting.push(() => send(200, GAME[options.game]));
      else send(200, GAME[options.game]);
    } else send(404, page('<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gameRequested,
    release() {
      held = false;
      for (const answer of waiting.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
