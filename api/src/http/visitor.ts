/**
 * The visitor id in a signed, HttpOnly cookie (only its hash is stored). An unsigned cookie is a
 * new visitor, so a client cannot mint allowances; the first secret signs, any verifies
 * (rotation). Over https it is `__Host-` prefixed, so a sibling subdomain cannot plant one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { isValidId } from 'shared/ids';
import { newId } from '../codes';
import { unkeyedHash } from '../hash';

export const VISITOR_COOKIE = 'p_visitor';
export const SECURE_VISITOR_COOKIE = `__Host-${VISITOR_COOKIE}`;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
const SIGNATURE_CHARS = 32;

export interface VisitorCookieConfig {
  name: string;
  /** Always Secure (https); otherwise Secure only on a request that came over https. */
  secure: boolean;
  secrets: readonly Buffer[];
}

/** The cookie as development runs it (http, a random secret): also what tests start from. */
export function developmentVisitorCookie(secrets: readonly Buffer[] = [randomBytes(32)]): VisitorCookieConfig {
  return { name: VISITOR_COOKIE, secure: false, secrets };
}

function signature(id: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(id).digest('base64url').slice(0, SIGNATURE_CHARS);
}

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

/** Parsed only by the routes that need it: the gift read, the hot path, has no use for cookies. */
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

export function existingVisitorId(request: FastifyRequest): string | undefined {
  const config = cookieConfig(request);
  return verifyVisitorCookie(cookieValue(request, config.name), config)?.id;
}

/** One signed with an older secret is signed again with the current one. */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const config = cookieConfig(request);
  const existing = verifyVisitorCookie(cookieValue(request, config.name), config);
  if (existing && !existing.stale) return existing.id;
  const id = existing?.id ?? newId();
  setVisitorCookie(request, reply, id);
  return id;
}

export function visitorHash(id: string): string {
  return unkeyedHash(`visitor:${id}`);
}
