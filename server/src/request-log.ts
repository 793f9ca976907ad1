/**
 * The request log of every server of ours: one line per request once it is answered, in the
 * shape of the API's (`reqId`, `req: { method, url, addressHash }`, `res: { statusCode }`,
 * `responseTime` in ms, msg `request completed`), with ids in the path masked by the one
 * `maskUrl` the API uses too.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

const ID_KEPT_CHARS = 4;
/** Segments that name a resource by id, whatever the id looks like: the API's and the pages' (`/redeem/:redeemId`). */
const ID_PARENTS = new Set(['gifts', 'redeems', 'redeem']);
/** Anything id-like elsewhere: a long run of URL-safe base64. */
const ID_LIKE = /^[A-Za-z0-9_-]{16,}$/;

function maskSegment(segment: string): string {
  return segment.length > ID_KEPT_CHARS ? `${segment.slice(0, ID_KEPT_CHARS)}…` : segment;
}

/**
 * Gift and redeem ids work like passwords (whoever has one may open the gift or the session), so
 * a logged path keeps each id's first four characters and no query string:
 * `/api/redeems/AbCdEfGh…/complete?x=1` → `/api/redeems/AbCd…/complete?…`, `/gifts/AbCdEf…` →
 * `/gifts/AbCd…`.
 */
export function maskUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const segments = path.split('/');
  const masked = segments.map((segment, index) => {
    if (!segment) return segment;
    const parent = segments[index - 1] ?? '';
    return ID_PARENTS.has(parent) || ID_LIKE.test(segment) ? maskSegment(segment) : segment;
  });
  return `${masked.join('/')}${queryAt === -1 ? '' : '?…'}`;
}

/**
 * The peer's address as this server sees it (the proxy's, behind one), as a keyed hash: lines
 * of one process can be matched to each other, never to an address by hashing every IPv4
 * address. The key is the process's own, so the hashes are not the API's (which shares its
 * key with its abuse counters).
 */
const ADDRESS_KEY = randomBytes(32);

export function peerAddressHash(address: string | undefined): string {
  const plain = address?.startsWith('::ffff:') ? address.slice('::ffff:'.length) : (address ?? '');
  return createHmac('sha256', ADDRESS_KEY).update(plain).digest('base64url').slice(0, 32);
}

const requestIds = new WeakMap<IncomingMessage, string>();
let lastRequestId = 0;

/** The request's id in the log (`req-1`, `req-2`, … in base 36 per process, as Fastify numbers them). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return requestIds.get(req);
}

export interface RequestLogOptions {
  /** Requests logged at `debug` rather than `info`: health checks, which a supervisor repeats every few seconds. */
  isQuiet?: (req: IncomingMessage) => boolean;
  /** The visitor's address: behind a trusted proxy, from its X-Forwarded-For; by default the peer's. */
  clientAddress?: (req: IncomingMessage) => string | undefined;
}

/** Logs every request `server` answers (or whose client went away first: `request aborted`). */
export function logRequests(
  server: Server,
  log: () => Logger,
  { isQuiet = () => false, clientAddress = (req) => req.socket.remoteAddress }: RequestLogOptions = {},
): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // Read now: once the connection has closed, the socket no longer has it.
    const addressHash = peerAddressHash(clientAddress(req));
    lastRequestId = (lastRequestId + 1) % Number.MAX_SAFE_INTEGER;
    const reqId = `req-${lastRequestId.toString(36)}`;
    requestIds.set(req, reqId);
    res.once('close', () => {
      const logger = log();
      const level = isQuiet(req) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        reqId,
        req: { method: req.method, url: maskUrl(req.url ?? '/'), addressHash },
        res: { statusCode: res.statusCode },
        responseTime: performance.now() - started,
      };
      logger[level](line, res.writableFinished ? 'request completed' : 'request aborted');
    });
  });
}
