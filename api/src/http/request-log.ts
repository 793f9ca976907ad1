/** Ids work like passwords: paths are masked; the address is the counters' hash. */
import { type FastifyRequest } from 'fastify';
import { type Logger } from 'pino';
import { maskUrl } from 'server/request-log';
import { type App } from '../app-context';
import { hashKey, hashValue } from '../hash';
import { limitSubject } from './client-ip';

const recentHashes = new Map<string, string>();
const RECENT_HASHES = 1_000;
let recentKey: Buffer | undefined;

/** The rate-limit counters' hash of the address (`rate_counters.bucket`'s suffix). */
export function addressHash(ip: string): string {
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

export function serializeRequest(request: FastifyRequest): LoggedRequest {
  return { method: request.method, url: maskUrl(request.url), addressHash: addressHash(request.ip) };
}

const HEALTH_PATH = '/api/health';

/** Health checks at `debug`; no redaction (a tenth of a gift read): no field here is personal. */
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
