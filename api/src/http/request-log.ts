/**
 * What a log line says about a request. Gift and redeem ids work like passwords (whoever has one
 * may open the gift or the session), so paths are logged with each id cut to its first four
 * characters, and the query string is left out, by the `maskUrl` every server of ours logs its
 * requests with (server/request-log). The client address is logged as the same hash
 * the abuse-limit counters store (of its IPv4 address or IPv6 /64), so an operator can match log
 * lines to counters and to each other without the address itself.
 */
import { type FastifyRequest } from 'fastify';
import { type Logger } from 'pino';
import { maskUrl } from 'server/request-log';
import { type App } from '../app-context';
import { hashKey, hashValue } from '../hash';
import { limitSubject } from './client-ip';

const recentHashes = new Map<string, string>();
const RECENT_HASHES = 1_000;
/** The key the remembered hashes were made with. */
let recentKey: Buffer | undefined;

/**
 * The same hash the rate-limit counters use for the address (`rate_counters.bucket`'s suffix):
 * keyed with the server's secret, so a log line's hash cannot be matched to an address by
 * hashing every address.
 */
export function addressHash(ip: string): string {
  // Every log line of a request needs it, and a busy client sends many: remember the last few.
  if (recentKey !== hashKey()) {
    recentHashes.clear();
    recentKey = hashKey();
  }
  let hash = recentHashes.get(ip);
  if (hash === undefined) {
    hash = hashValue(limitSubject(ip));
    if (recentHashes.size >= RECENT_HASHES) recentHashes.clear();
    recentHashes.set(ip, hash);
  }
  return hash;
}

export interface LoggedRequest {
  [key: string]: unknown;
  method: string;
  url: string;
  addressHash: string;
}

/** Fastify's `req` log serializer: replaces the default (full URL, address, port, host). */
export function serializeRequest(request: FastifyRequest): LoggedRequest {
  return { method: request.method, url: maskUrl(request.url), addressHash: addressHash(request.ip) };
}

/** The health routes, which supervisors and balancers ask every few seconds. */
const HEALTH_PATH = '/api/health';

/**
 * The access log: one line per request, once it is answered, in Fastify's shape (`reqId`, `req`,
 * `res.statusCode`, `responseTime`), the shape of every server's request log
 * (server/request-log). Health checks at `debug`, as on every server: their repeats would bury
 * the visitors' requests. Written by a logger of its own, without redaction: every field is
 * built above from nothing personal, and the app logger's redaction (kept for everything else,
 * where an email or a voucher code could slip into a logged object) cost a gift read about a
 * tenth of its time.
 */
export function installAccessLog(app: App, logger: Logger): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '';
    const level = route === HEALTH_PATH || route.startsWith(`${HEALTH_PATH}/`) ? 'debug' : 'info';
    logger[level](
      {
        reqId: request.id,
        req: serializeRequest(request),
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
}
