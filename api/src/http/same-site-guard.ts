/**
 * No state change from another site. A cross-site page can make a browser send a POST without a
 * CORS preflight when it has no body, or a `text/plain` or form body; the browser then attaches
 * the visitor's cookie (SameSite=Lax still sends it for same-site requests, which another port
 * of localhost is). So every state-changing request must be JSON (which needs a preflight
 * cross-origin), and is refused when the browser says it came from another site
 * (`Sec-Fetch-Site: cross-site`) or names an origin that is not allowed. A request without an
 * Origin header does not come from a page (curl, a server) and carries no visitor's cookie.
 * In the development default the allowed origin is a pattern (the host's port on any hostname);
 * it then admits only a page on the hostname this request was sent to. A route may take another
 * body type (`bodyTypes`: telemetry's beacons) or be left alone (`anySite`: browsers' CSP
 * reports) when it reads no cookie and changes nothing of a visitor's.
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
  // A callback, not an async function: every request passes here, most of them reads, and a
  // promise per request costs a gift read a few per cent of its time.
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
