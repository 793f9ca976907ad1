/**
 * A cross-site POST without a preflight still carries the cookie: state changes must be JSON,
 * and are refused cross-site or from an unknown Origin (none: not a page, no cookie).
 */
import { type FastifyRequest } from 'fastify';
import { isAllowedOrigin, type AllowedOrigin } from 'server/origins';
import { type App } from '../app-context';
import { HttpError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_MESSAGE = 'Requests from other sites are not accepted.';
export const JSON_ONLY_MESSAGE = 'Send the request body as JSON (Content-Type: application/json).';

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function installSameSiteGuard(app: App, allowedOrigins: readonly AllowedOrigin[]): void {
  // A callback: a promise per request costs a gift read a few per cent.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const route = request.routeOptions.config;
    if (route.anySite) return done();
    const origin = request.headers.origin;
    if (
      request.headers['sec-fetch-site'] === 'cross-site' ||
      (origin !== undefined && !isAllowedOrigin(origin, allowedOrigins, request.headers.host))
    ) {
      request.log.warn(
        { origin, secFetchSite: request.headers['sec-fetch-site'] },
        'refused a request from another site',
      );
      return done(new HttpError(403, CROSS_SITE_MESSAGE));
    }
    const type = mediaType(request);
    if (type !== 'application/json' && !route.bodyTypes?.includes(type))
      return done(new HttpError(400, JSON_ONLY_MESSAGE));
    done();
  });
}
