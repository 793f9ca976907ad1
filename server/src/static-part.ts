/** A remote's server: its folder as a CDN would serve it, a plain 404 for a miss (never index.html). */
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { LogLevel } from './env';
import { isHiddenPath, safeRelativePath, sendFile } from './file-reply';
import { createLogger, setServerLog } from './log';
import { createMetricsRegistry, DEFAULT_METRICS_HOST, type MetricsEnv } from './metrics';
import { isAllowedOrigin, type AllowedOrigin } from './origins';
import { servePart, type PartRoutes, type PartServer, type PartServerOptions } from './part-server';
import { sendText } from './text-reply';

export const STATIC_REQUESTS_METRIC = 'giftbox_static_requests_total';

/** Grants a page at an allowed origin the right to read what this server answers, a 404 too. */
export function applyCors(request: FastifyRequest, reply: FastifyReply, origins: readonly AllowedOrigin[]): void {
  const origin = request.headers.origin;
  reply.header('Vary', 'Origin, Accept-Encoding');
  if (origin && (origins.includes('*') || isAllowedOrigin(origin, origins, request.headers.host))) {
    reply
      .header('Access-Control-Allow-Origin', origin)
      .header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS')
      .header('Access-Control-Max-Age', '600');
  }
}

export function countStaticRequests(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: STATIC_REQUESTS_METRIC,
    help: 'Requests a static part answered, by HTTP status (health checks not counted).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (_request, reply) => void requests.inc({ status: String(reply.statusCode) }));
}

export interface StaticFilesOptions {
  root: string;
  corsOrigins?: readonly AllowedOrigin[];
  registry?: Registry;
}

async function answerFile(request: FastifyRequest, reply: FastifyReply, root: string): Promise<void> {
  const relativePath = safeRelativePath(request.url);
  if (relativePath === undefined) return void sendText(reply, 400, 'Bad request path');
  // A file being written by a deploy, or its lock, is not part of any build: a plain 404.
  if (isHiddenPath(relativePath)) return void sendText(reply, 404, 'Not found');
  if (!(await sendFile(request, reply, root, relativePath || 'index.html'))) sendText(reply, 404, 'Not found');
}

/** The routes of a folder served as it is: GET and HEAD of its files, OPTIONS for CORS, 405 otherwise. */
export function staticFiles({ root, corsOrigins = [], registry }: StaticFilesOptions): PartRoutes {
  return (app) => {
    if (registry) countStaticRequests(app, registry);
    app.addHook('onRequest', async (request, reply) => applyCors(request, reply, corsOrigins));
    // HEAD is answered by the same route: its Content-Length is the file's.
    app.route({ method: ['GET', 'HEAD'], url: '/*', handler: (request, reply) => answerFile(request, reply, root) });
    app.options('/*', (_request, reply) => reply.code(204).send());
    app.route({
      method: ['POST', 'PUT', 'DELETE', 'PATCH'],
      url: '/*',
      handler: (_request, reply) => sendText(reply.header('Allow', 'GET, HEAD, OPTIONS'), 405, 'Method not allowed'),
    });
  };
}

export interface RemoteServeOptions extends Omit<PartServerOptions, 'buildFile' | 'metrics'>, Partial<MetricsEnv> {
  logLevel?: LogLevel;
  part: string;
  port: number;
  root: string;
  hostOrigin: AllowedOrigin;
}

/** Serves a remote's folder, healthy while it holds `builds/latest.json`; log lines carry `name`. */
export function serveRemoteDist(
  name: string,
  {
    part,
    port,
    root,
    hostOrigin,
    metricsPort,
    metricsHost = DEFAULT_METRICS_HOST,
    logLevel,
    log = setServerLog(createLogger(name, logLevel)),
    ...options
  }: RemoteServeOptions,
): Promise<PartServer> {
  const registry = metricsPort === undefined ? undefined : createMetricsRegistry(part);
  const routes = staticFiles({ root, corsOrigins: [hostOrigin], registry });
  const metrics = registry && { registry, metricsPort: metricsPort as number, metricsHost };
  return servePart(name, port, routes, { ...options, log, metrics, buildFile: join(root, 'builds', 'latest.json') });
}
