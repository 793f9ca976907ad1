/**
 * The visitor id: a random id in a first-party, HttpOnly cookie, set on the first play or the
 * first "Redeem". It counts plays, and it ties a redeem session to the browser that opened it.
 * Only its hash is ever stored.
 */
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { isValidId } from 'shared/ids';
import { newId } from '../codes';
import { hashValue } from '../hash';

export const VISITOR_COOKIE = 'p_visitor';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The request's visitor id, when it carries a well-formed one; sets nothing. */
export function existingVisitorId(request: FastifyRequest): string | undefined {
  const existing = request.cookies[VISITOR_COOKIE];
  return isValidId(existing) ? existing : undefined;
}

/** The request's visitor id; a new one (and its Set-Cookie) when missing or malformed. */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const existing = existingVisitorId(request);
  if (existing) return existing;
  const id = newId();
  reply.setCookie(VISITOR_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: ONE_YEAR_SECONDS,
  });
  return id;
}

/** What a redeem session stores to recognise its visitor: a hash, never the id. */
export function visitorHash(id: string): string {
  return hashValue(`visitor:${id}`);
}
