/** `GET /healthz`: 503 for an empty folder or a draining server; the build file is read per check, so a deploy shows at once. */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendText } from './text-reply';

export const HEALTH_PATH = '/healthz';

export interface HealthOptions {
  /** Or where it is now: the host follows its folder's builds. */
  buildFile: string | (() => string);
  isStopping: () => boolean;
  /** 503 `starting`. */
  isStarting?: () => boolean;
  details?: () => Record<string, unknown>;
}

async function readBuildId(buildFile: string): Promise<string | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(buildFile, 'utf8'));
    const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    // Missing, half-written or not JSON: no build to vouch for.
    return undefined;
  }
}

export function isHealthUrl(url: string | undefined): boolean {
  return (url ?? '/').split('?')[0] === HEALTH_PATH;
}

async function answerHealth(reply: FastifyReply, options: HealthOptions): Promise<FastifyReply> {
  const buildFile = typeof options.buildFile === 'string' ? options.buildFile : options.buildFile();
  const build = options.isStopping() ? undefined : await readBuildId(buildFile);
  // Checked again: shutdown may have begun while the file was read.
  let status: number;
  let body: object;
  if (build === undefined || options.isStopping()) [status, body] = [503, { status: 'unavailable' }];
  else if (options.isStarting?.()) [status, body] = [503, { status: 'starting' }];
  else [status, body] = [200, { status: 'ok', build, ...options.details?.() }];
  return reply
    .code(status)
    .header('Content-Type', 'application/json; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(`${JSON.stringify(body)}\n`);
}

export function registerHealth(app: FastifyInstance, options: HealthOptions): void {
  app.get(HEALTH_PATH, (_request, reply) => answerHealth(reply, options));
  app.route({
    method: ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: HEALTH_PATH,
    handler: (_request, reply) => sendText(reply.header('Allow', 'GET, HEAD'), 405, 'Method not allowed'),
  });
}
