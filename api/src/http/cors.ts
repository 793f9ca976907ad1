/** One hook, not @fastify/cors: that ignores a pattern's hostname and rebuilds options per request. */
import { type AllowedOrigin, isAllowedOrigin } from 'server/origins';
import { type App } from '../app-context';
import { HttpError } from './errors';

const ALLOWED_METHODS = 'GET, POST';
const EXPOSED_HEADERS = 'Retry-After';
const PREFLIGHT_MAX_AGE = '600';
export const BAD_PREFLIGHT_MESSAGE = 'A preflight request needs Origin and Access-Control-Request-Method headers.';

export function installCors(app: App, allowedOrigins: readonly AllowedOrigin[]): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    const allowed = origin !== undefined && isAllowedOrigin(origin, allowedOrigins, request.headers.host);
    if (allowed) {
      void reply.header('access-control-allow-origin', origin);
      void reply.header('access-control-allow-credentials', 'true');
      void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    if (request.method !== 'OPTIONS') return done();
    const method = request.headers['access-control-request-method'];
    if (origin === undefined || method === undefined) return done(new HttpError(400, BAD_PREFLIGHT_MESSAGE));
    if (allowed) {
      void reply.header('access-control-allow-methods', ALLOWED_METHODS);
      const asked = request.headers['access-control-request-headers'];
      void reply.header('vary', 'Origin, Access-Control-Request-Headers');
      if (asked !== undefined) void reply.header('access-control-allow-headers', asked);
      void reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
    }
    // Safari waits for a body unless a 204 says it has none.
    void reply.code(204).header('content-length', '0').send();
  });
  // So that OPTIONS reaches the hook instead of a 404.
  app.options('*', async (_request, reply) => reply.callNotFound());
}
