/**
 * `GET /healthz` for the static servers: 200 `{ status: "ok", build }` while the folder holds a
 * build and the server is not shutting down, else 503 `{ status: "unavailable" }`, so a load
 * balancer stops sending visitors to a remote deployed into an empty folder or to a server
 * that is draining. The build file is read on every check: a deploy into the folder (which
 * swaps `latest.json` last) shows at once.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendText } from './text-reply';

export const HEALTH_PATH = '/healthz';

export interface HealthOptions {
  /** The served build's `latest.json` (`{ id, timestamp }`), or where it is now (the host follows its folder's builds). */
  buildFile: string | (() => string);
  /** True once shutdown has begun. */
  isStopping: () => boolean;
  /**
   * True while the server is not ready to serve its pages as they should be (the host, until it
   * has read each remote once): 503 `{ status: "starting" }`, so no visitor is sent to it yet.
   */
  isStarting?: () => boolean;
  /** More of what a healthy server says of itself (the host: the build its folder publishes). */
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

/** Whether a request URL is for the health route, whatever its query. */
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
  return (
    reply
      .code(status)
      .header('Content-Type', 'application/json; charset=utf-8')
      // A cached "ok" would hide an outage or a shutdown.
      .header('Cache-Control', 'no-store')
      .send(`${JSON.stringify(body)}\n`)
  );
}

export function registerHealth(app: FastifyInstance, options: HealthOptions): void {
  app.get(HEALTH_PATH, (_request, reply) => answerHealth(reply, options));
  app.route({
    method: ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: HEALTH_PATH,
    handler: (_request, reply) => sendText(reply.header('Allow', 'GET, HEAD'), 405, 'Method not allowed'),
  });
}
