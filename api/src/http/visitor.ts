/**
 * The visitor id: a random id in a first-party, HttpOnly cookie, set on the first play or the
 * first "Redeem". It counts plays, and it ties a redeem session to the browser that opened it.
 * Only its hash is ever stored.
 *
 * The cookie is signed: its value is `<id>.<signature>`, the signature an HMAC-SHA256 of the id
 * under the server's secret (VISITOR_COOKIE_SECRETS). A cookie the server did not sign (made up,
 * altered, or unsigned from before signing) is no identity: the request is a new visitor and gets
 * a fresh cookie, so a client cannot mint visitors, and their play and redeem allowances, by
 * sending ids of its own. The first secret signs and any of them verifies, so secrets can be
 * rotated without logging visitors out; a cookie verified by an older secret is signed again with
 * the first one.
 *
 * Over https (HOST_ORIGIN https) the cookie is `__Host-p_visitor`, always Secure: the prefix makes
 * the browser refuse one set without Secure, with a Domain, or for a path other than `/`, so a
 * sibling subdomain cannot plant one. In development over http it is `p_visitor`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { isValidId } from 'shared/ids';
import { newId } from '../codes';
import { unkeyedHash } from '../hash';

export const VISITOR_COOKIE = 'p_visitor';
/** Its name when the site is served over https. */
export const SECURE_VISITOR_COOKIE = `__Host-${VISITOR_COOKIE}`;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
/** Characters of the signature kept: 32 of URL-safe base64, 192 bits. */
const SIGNATURE_CHARS = 32;

/** How the API names, signs and checks the visitor cookie (AppConfig's `visitorCookie`). */
export interface VisitorCookieConfig {
  /** `__Host-p_visitor` when the site is served over https, else `p_visitor`. */
  name: string;
  /** Always Secure (https); otherwise Secure only on a request that came over https. */
  secure: boolean;
  /** The HMAC keys, newest first: the first signs, any of them verifies. */
  secrets: readonly Buffer[];
}

/** The cookie as development runs it (http, a random secret): also what tests start from. */
export function developmentVisitorCookie(secrets: readonly Buffer[] = [randomBytes(32)]): VisitorCookieConfig {
  return { name: VISITOR_COOKIE, secure: false, secrets };
}

function signature(id: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(id).digest('base64url').slice(0, SIGNATURE_CHARS);
}

/** The cookie's value for `id`, signed with the first secret. */
export function signVisitorId(id: string, config: VisitorCookieConfig): string {
  const first = config.secrets[0];
  if (!first) throw new Error('the visitor cookie has no secret to sign with');
  return `${id}.${signature(id, first)}`;
}

interface Verified {
  id: string;
  /** Signed with a secret other than the first: to be signed again. */
  stale: boolean;
}

/** The id of a cookie value the server signed, with any of its secrets; undefined otherwise. */
export function verifyVisitorCookie(value: string | undefined, config: VisitorCookieConfig): Verified | undefined {
  if (value === undefined) return undefined;
  const dot = value.indexOf('.');
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  if (dot === -1 || !isValidId(id) || given.length !== SIGNATURE_CHARS) return undefined;
  const index = config.secrets.findIndex((secret) => timingSafeEqual(Buffer.from(signature(id, secret)), given));
  return index === -1 ? undefined : { id, stale: index > 0 };
}

function cookieConfig(request: FastifyRequest): VisitorCookieConfig {
  return request.server.visitorCookie;
}

/**
 * The cookie's value in the request. Parsed here, only by the routes that need it, rather than by
 * @fastify/cookie's hooks on every request: the gift read, the hot path, has no use for cookies.
 */
function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  return header === undefined ? undefined : request.server.parseCookie(header)[name];
}

function setVisitorCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  const config = cookieConfig(request);
  // Fastify adds a Set-Cookie header to any already set, never replaces one.
  void reply.header(
    'set-cookie',
    request.server.serializeCookie(config.name, signVisitorId(id, config), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secure || request.protocol === 'https',
      maxAge: ONE_YEAR_SECONDS,
    }),
  );
}

/** The request's visitor id, when it carries a cookie the server signed; sets nothing. */
export function existingVisitorId(request: FastifyRequest): string | undefined {
  const config = cookieConfig(request);
  return verifyVisitorCookie(cookieValue(request, config.name), config)?.id;
}

/**
 * The request's visitor id; a new one (and its Set-Cookie) when the cookie is missing or not
 * signed by the server. One signed with an older secret is signed again with the current one.
 */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const config = cookieConfig(request);
  const existing = verifyVisitorCookie(cookieValue(request, config.name), config);
  if (existing && !existing.stale) return existing.id;
  const id = existing?.id ?? newId();
  setVisitorCookie(request, reply, id);
  return id;
}

/** What a redeem session stores to recognise its visitor: a hash, never the id. */
export function visitorHash(id: string): string {
  return unkeyedHash(`visitor:${id}`);
}
