/**
 * The host's production request handler: the runtime configuration, the built files, and for
 * any other page the app's HTML (page-html.ts) with the status the route table gives it (200,
 * or 404 for an unknown path or a malformed id).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { HttpError } from 'shared/http-error';
import { safeRelativePath, sendBody, sendFile, sendText, type RequestHandler } from 'shared/node/static-server';
import type { RuntimeConfig } from 'shared/runtime-config';
import { errorTitleFor } from '../src/route-table/error-titles';
import { resolvePath, type RouteDefinition } from '../src/route-table/route-table';
import { createPageHtml } from './page-html';
import type { RemoteSources } from './remote-sources';

/** The build file, inside the built folder, whose id the host's `/healthz` reports. */
export const HOST_BUILD_FILE = '_app/builds/latest.json';

export interface HostHandlerOptions {
  /** The host's built folder. */
  root: string;
  config: RuntimeConfig;
  /** What the remotes' builds hold, for the pages' preloads and prerendered markup; none: plain pages. */
  sources?: Pick<RemoteSources, 'snapshot'>;
  /** The host's stylesheet, inlined with a prerendered page. */
  hostCss?: string;
}

function wantsHtml(req: IncomingMessage): boolean {
  return /\btext\/html\b/.test(String(req.headers.accept ?? ''));
}

function sendConfig(req: IncomingMessage, res: ServerResponse, body: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

function pathnameOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0]?.split('#')[0] || '/';
}

export function createHostHandler({ root, config, sources, hostCss = '' }: HostHandlerOptions): RequestHandler {
  const configBody = `${JSON.stringify(config)}\n`;
  const snapshot = sources ? sources.snapshot : () => undefined;
  /** The page renderer of the built index.html last read (a new build of the host replaces it). */
  let page: { template: string; render: ReturnType<typeof createPageHtml> } | undefined;

  async function renderPage(
    pathname: string,
    resolved: { route: RouteDefinition } | HttpError,
  ): Promise<string | undefined> {
    let template: string;
    try {
      template = await readFile(join(root, 'index.html'), 'utf8');
    } catch {
      return undefined;
    }
    if (page?.template !== template) page = { template, render: createPageHtml({ template, config, hostCss }) };
    // An unknown path or an invalid id gets no preloads: the app shows an error, not the page.
    return resolved instanceof HttpError
      ? page.render({ pathname, route: undefined, errorTitle: errorTitleFor(resolved.statusCode, false), snapshot })
      : page.render({ pathname, route: resolved.route, snapshot });
  }

  return async (req, res) => {
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendText(res, 405, 'Method not allowed');
      return;
    }
    const pathname = pathnameOf(req.url);
    if (pathname === '/config.json') {
      sendConfig(req, res, configBody);
      return;
    }
    const relativePath = safeRelativePath(req.url);
    if (relativePath && relativePath !== 'index.html' && (await sendFile(req, res, root, relativePath))) return;
    const resolved = resolvePath(pathname);
    // A missing script or stylesheet must fail as such, never as a page.
    if (resolved instanceof HttpError && !wantsHtml(req)) {
      sendText(res, 404, 'Not found');
      return;
    }
    const status = resolved instanceof HttpError ? resolved.statusCode : 200;
    const html = await renderPage(pathname, resolved);
    if (html === undefined) {
      sendText(res, 503, 'The host has not been built: run npm run build -w host');
      return;
    }
    await sendBody(req, res, { status, type: 'text/html; charset=utf-8', body: html, cacheControl: 'no-cache' });
  };
}
