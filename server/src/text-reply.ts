import type { FastifyReply } from 'fastify';

/** Never stored. */
export function sendText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/plain; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .send(text);
}
