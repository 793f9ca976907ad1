/**
 * CORS: which pages may read the API's answers, with the visitor's cookie. Exactly the origins an
 * operator configured (HOST_ORIGIN, CORS_ORIGINS), or, in the development default, the host's
 * port on the hostname this request was sent to: the same rule as the same-site guard
 * (`isAllowedOrigin`), so a page on another hostname at the host's port
 * (`http://elsewhere.example:3000`) reads nothing, as it changes nothing.
 *
 * One hook does it all, in place of @fastify/cors, which checked a pattern without the hostname
 * and, answering every request, built its options anew each time: the gift read, the hot path,
 * comes without Origin and now costs one header. A preflight from an allowed page gets 204 with
 * the methods and the headers it asked for; from any other page, 204 without them, which the
 * browser takes as a refusal.
 */
import { type AllowedOrigin, isAllowedOrigin } from 'server/origins';
import { type App } from '../app-context';
import { HttpError } from './errors';

const ALLOWED_METHODS = 'GET, POST';
const EXPOSED_HEADERS = 'Retry-After';
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';
export const BAD_PREFLIGHT_MESSAGE = 'A preflight request needs Origin and Access-Control-Request-Method headers.';

export function installCors(app: App, allowedOrigins: readonly AllowedOrigin[]): void {
  app.addHook('onRequest', (request, reply, done) => {
    // The answer depends on Origin: a cache must not give one page's answer to another.
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
  // A route for every OPTIONS request, so that it reaches the hook above instead of a 404.
  app.options('*', async (_request, reply) => reply.callNotFound());
}
