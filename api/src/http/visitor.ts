/** The visitor id: a random id in a first-party, HttpOnly cookie, set on the first play. */
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { isValidId } from 'shared/ids';
import { newId } from '../codes';

export const VISITOR_COOKIE = 'p_visitor';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The request's visitor id; a new one (and its Set-Cookie) when missing or malformed. */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[VISITOR_COOKIE];
  if (isValidId(existing)) return existing;
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
