/**
 * A loopback server standing in for the Iconify API (api.iconify.design): `GET /{prefix}.json?icons=a,b`
 * answers an icon set in Iconify's JSON format with the icons it knows, `not_found` for the
 * others, and 404 for an unknown prefix, as the real service does. It records every request
 * (and whether the browser gave up before the answer), and can be told to fail or to be slow.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** The icons the stand-in serves; made-up shapes, in the format of the real sets. */
const ICONS: Record<string, Record<string, { body: string }>> = {
  mdi: {
    'rocket-launch': {
      body: '<path fill="currentColor" d="M12 2c3 2 5 6 5 10l2 3v3l-3-1H8l-3 1v-3l2-3c0-4 2-8 5-10m0 7a2 2 0 1 0 0 4a2 2 0 0 0 0-4"/>',
    },
  },
};

export type StandInMode =
  | { kind: 'ok'; delayMs?: number }
  | { kind: 'fail'; status: number }
  /** Holds every answer this long: longer than the app's timeout, the browser gives up first. */
  | { kind: 'slow'; delayMs: number }
  /** Holds every answer until `release()`: a test sees the page waiting, then lets the answer go. */
  | { kind: 'held' };

export interface IconRequest {
  path: string;
  /** The `icons` query parameter. */
  icons: string | null;
  /** The browser closed the connection before the answer was sent. */
  aborted: boolean;
}

export interface IconServiceStandIn {
  readonly url: string;
  readonly requests: readonly IconRequest[];
  setMode(mode: StandInMode): void;
  /** Answers the requests held so far (mode `held`) and those that follow, as in mode `ok`. */
  release(): void;
  /** Forgets the recorded requests and answers normally again. */
  reset(): void;
  close(): Promise<void>;
}

function iconSet(prefix: string, names: string[]): object | undefined {
  const known = ICONS[prefix];
  if (!known) return undefined;
  const icons = Object.fromEntries(names.filter((name) => known[name]).map((name) => [name, known[name]]));
  const notFound = names.filter((name) => !known[name]);
  return { prefix, icons, width: 24, height: 24, ...(notFound.length ? { not_found: notFound } : {}) };
}

function send(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    // The real service lets browsers cache for days; here only the app's own cache may save a request.
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

export async function startIconServiceStandIn(port: number): Promise<IconServiceStandIn> {
  const requests: IconRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const held: (() => void)[] = [];
  let mode: StandInMode = { kind: 'ok' };

  function answer(req: IncomingMessage, res: ServerResponse, record: IconRequest): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const prefix = /^\/([a-z0-9-]+)\.json$/.exec(url.pathname)?.[1];
    if (mode.kind === 'fail') return send(res, mode.status, JSON.stringify({ error: 'stand-in told to fail' }));
    const set = prefix && record.icons ? iconSet(prefix, record.icons.split(',')) : undefined;
    if (!set) return send(res, 404, '404');
    send(res, 200, JSON.stringify(set));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const record: IconRequest = { path: url.pathname, icons: url.searchParams.get('icons'), aborted: false };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });
    if (mode.kind === 'held') return void held.push(() => answer(req, res, record));
    const delayMs = mode.kind === 'ok' || mode.kind === 'slow' ? (mode.delayMs ?? 0) : 0;
    if (delayMs === 0) return answer(req, res, record);
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer(req, res, record);
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next) {
      mode = next;
    },
    release() {
      mode = { kind: 'ok' };
      for (const send of held.splice(0)) send();
    },
    reset() {
      requests.length = 0;
      held.length = 0;
      mode = { kind: 'ok' };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
