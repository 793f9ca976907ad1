/**
 * `GET /healthz` for the static servers: 200 `{ status: "ok", build }` while the folder holds a
 * build and the server is not shutting down, else 503 `{ status: "unavailable" }`, so a load
 * balancer stops sending visitors to a remote deployed into an empty folder or to a server
 * that is draining. The build file is read on every check: a deploy into the folder (which
 * swaps `latest.json` last) shows at once.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText } from './static-server';

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

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: object): void {
  const text = `${JSON.stringify(body)}\n`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // A cached "ok" would hide an outage or a shutdown.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Whether a request URL is for the health route, whatever its query. */
export function isHealthUrl(url: string | undefined): boolean {
  return (url ?? '/').split('?')[0] === HEALTH_PATH;
}

/** Answers a request for `/healthz` (see `isHealthUrl`). */
export async function answerHealth(req: IncomingMessage, res: ServerResponse, options: HealthOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    sendText(res, 405, 'Method not allowed');
    return;
  }
  const buildFile = typeof options.buildFile === 'string' ? options.buildFile : options.buildFile();
  const build = options.isStopping() ? undefined : await readBuildId(buildFile);
  // Checked again: shutdown may have begun while the file was read.
  if (build === undefined || options.isStopping()) {
    sendJson(req, res, 503, { status: 'unavailable' });
    return;
  }
  if (options.isStarting?.()) {
    sendJson(req, res, 503, { status: 'starting' });
    return;
  }
  sendJson(req, res, 200, { status: 'ok', build, ...options.details?.() });
}
