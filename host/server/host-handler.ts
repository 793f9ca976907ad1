/**
 * The host's production request handler: the runtime configuration, the built files, and for
 * any other page the app's HTML with the status the route table gives it (200, or 404 for an
 * unknown path or a malformed id).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from 'shared/http-error';
import { safeRelativePath, sendFile, sendText, type RequestHandler } from 'shared/node/static-server';
import type { RuntimeConfig } from 'shared/runtime-config';
import { resolvePath } from '../src/route-table/route-table';

/** The build file, inside the built folder, whose id the host's `/healthz` reports. */
export const HOST_BUILD_FILE = '_app/builds/latest.json';

export interface HostHandlerOptions {
  /** The host's built folder. */
  root: string;
  config: RuntimeConfig;
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

export function createHostHandler({ root, config }: HostHandlerOptions): RequestHandler {
  const configBody = `${JSON.stringify(config)}\n`;
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
    if (!(await sendFile(req, res, root, 'index.html', status))) {
      sendText(res, 503, 'The host has not been built: run npm run build -w host');
    }
  };
}
