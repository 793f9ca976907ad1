/**
 * A small static file handler for built `dist/` folders: explicit cache headers, ETags, gzip,
 * CORS for an allowed list of origins, and a real 404 for a missing file (never index.html).
 * Files are looked up on every request, so a deploy into the folder is served at once; each
 * answer is read from the one file it opened, so a file a deploy renames over while it is being
 * answered goes out whole, old or new. A path with a segment that starts with a dot is never
 * served: the deploy commands' lock (`.deploy.lock`) and half-written temporary files
 * (`.*.deploy-tmp`) live there.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, createGzip, gzip as gzipCallback } from 'node:zlib';
import { Counter, type Registry } from 'prom-client';
import { decodePath } from 'shared/url-path';
import { cacheControlFor } from './cache-policy';
import { isAllowedOrigin, type AllowedOrigin } from './origins';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
const MIN_GZIP_BYTES = 1024;
const gzipAsync = promisify(gzipCallback);
const brotliAsync = promisify(brotliCompress);

export interface StaticOptions {
  /** Absolute path of the folder to serve. */
  root: string;
  /** Origins allowed to read these files cross-origin (the host's origin for a remote; `'*'`: any). */
  corsOrigins?: readonly AllowedOrigin[];
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The request path, decoded and checked; undefined when it is malformed or escapes the root. */
export function safeRelativePath(url: string | undefined): string | undefined {
  const pathname = (url ?? '/').split('?')[0]?.split('#')[0] ?? '/';
  const decoded = decodePath(pathname);
  if (decoded === undefined || decoded.includes('\0')) return undefined;
  const normalised = normalize(decoded).replace(/^([/\\])+/, '');
  if (normalised.startsWith('..') || normalised.split(/[/\\]/).includes('..')) return undefined;
  return normalised.split(sep).join('/');
}

/**
 * Whether a path (relative, `/`-separated) has a segment starting with a dot: a hidden file, the
 * deploy commands' lock or a temporary file a deploy is writing. A built part publishes none.
 */
export function isHiddenPath(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.startsWith('.'));
}

/**
 * Adds to the Vary header. A file that may be sent gzipped varies with Accept-Encoding whoever
 * serves it, or a shared cache could hand compressed bytes to a client that did not ask for them.
 */
function vary(res: ServerResponse, header: string): void {
  const current = String(res.getHeader('Vary') ?? '');
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (!names.includes(header.toLowerCase())) res.setHeader('Vary', current ? `${current}, ${header}` : header);
}

export function applyCors(req: IncomingMessage, res: ServerResponse, origins: readonly AllowedOrigin[]): void {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin, Accept-Encoding');
  if (origin && (origins.includes('*') || isAllowedOrigin(origin, origins, req.headers.host))) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    res.setHeader('Access-Control-Max-Age', '600');
  }
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end(text);
}

/**
 * Opens a file and reads its size and dates from the open file: the answer's headers and body
 * then come from one file, even when a deploy renames another over its path meanwhile (looked
 * up by path twice, a request got the old size and the new bytes, and never finished).
 */
async function openFile(path: string): Promise<{ file: FileHandle; stats: Stats } | undefined> {
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    const stats = await file.stat();
    if (stats.isFile()) return { file, stats };
  } catch {
    // No such file, or none that can be read: a miss.
  }
  await file?.close();
  return undefined;
}

/**
 * Serves `relativePath` from `root` with the given status. Resolves false when there is no
 * such file, so the caller decides what a miss means.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  relativePath: string,
  status = 200,
): Promise<boolean> {
  const filePath = join(root, relativePath);
  const opened = await openFile(filePath);
  if (!opened) return false;
  const { file, stats } = opened;
  try {
    return await sendOpenFile(req, res, relativePath, file, stats, status);
  } finally {
    await file.close();
  }
}

/** Answers with the open file at `relativePath`: its headers from `stats`, its body from `file`. */
async function sendOpenFile(
  req: IncomingMessage,
  res: ServerResponse,
  relativePath: string,
  file: FileHandle,
  stats: Stats,
  status: number,
): Promise<boolean> {
  const type = MIME_TYPES[extname(relativePath).toLowerCase()] ?? 'application/octet-stream';
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cacheControlFor(relativePath));
  res.setHeader('ETag', etag);
  if (COMPRESSIBLE.test(type) && stats.size >= MIN_GZIP_BYTES) vary(res, 'Accept-Encoding');
  res.setHeader('Last-Modified', stats.mtime.toUTCString());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (status === 200 && req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.statusCode = status;
  const gzip =
    COMPRESSIBLE.test(type) &&
    stats.size >= MIN_GZIP_BYTES &&
    /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (!gzip) res.setHeader('Content-Length', stats.size);
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  // The stream leaves the file open: sendFile closes it once the answer is sent.
  const stream = file.createReadStream({ autoClose: false });
  try {
    if (gzip) {
      res.setHeader('Content-Encoding', 'gzip');
      await pipeline(stream, createGzip(), res);
    } else {
      await pipeline(stream, res);
    }
  } catch {
    res.destroy();
  }
  return true;
}

export interface GeneratedBody {
  status: number;
  type: string;
  body: string;
  cacheControl: string;
}

/**
 * Brotli's quality for a body compressed for one request (a page rendered with a visitor's data,
 * a page pinned by a preview): the request waits for it, and a client can ask for such pages one
 * after another. On the largest page the host's server sends (`/privacy-policy`, 32.6 KB; `npm
 * run bench:page-compression -w bench`, a shared 2-core machine, medians of 21 in three runs),
 * quality 5 takes 0.50-0.56 ms for 8,083 bytes, within 1 % of qualities 6 to 9 (0.53-26 ms), where
 * quality 11 takes 33-89 ms. Its time grows with the page's size: a page of 87 KB would take
 * about 1.5 ms, within the 5 ms a request may spend on it.
 */
export const BROTLI_QUALITY_ON_THE_FLY = 5;
/**
 * Brotli's quality for a body compressed once and sent many times (a page kept by the host's
 * page cache): 33-89 ms once per page kept, for 7,134 bytes, 12 % fewer than quality 5 on every
 * page load (10: 11-34 ms, 7,361 bytes). The pages kept are bounded (one per route at its
 * canonical path, status and builds, at most 48 per view), so a client cannot make the server pay
 * it at will.
 */
export const BROTLI_QUALITY_KEPT = 11;

/** The encodings a prepared body can be sent in, the smallest first. */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * A generated body made once and sent many times (a page that every visitor gets alike): its
 * bytes, a strong ETag from their hash, and each compressed form, made the first time a client
 * accepts it and then kept, so no request compresses it again.
 */
export interface PreparedBody {
  readonly status: number;
  readonly type: string;
  readonly cacheControl: string;
  readonly bytes: Buffer;
  /** The strong ETag of the bytes as they are; each compressed form has its own (`"…-br"`, `"…-gzip"`). */
  readonly etag: string;
  /** Each compressed form, by encoding, once a client has asked for it. */
  readonly encoded: Map<Encoding, Promise<Buffer>>;
  /** Brotli's quality for it: BROTLI_QUALITY_KEPT for a body kept, BROTLI_QUALITY_ON_THE_FLY for one request's. */
  readonly brotliQuality: number;
}

export function prepareBody(
  { status, type, body, cacheControl }: GeneratedBody,
  brotliQuality = BROTLI_QUALITY_KEPT,
): PreparedBody {
  const bytes = Buffer.from(body, 'utf8');
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  return { status, type, cacheControl, bytes, etag, encoded: new Map(), brotliQuality };
}

/**
 * Sends a body made for this request (a page rendered with a visitor's data) as a prepared body
 * is sent, compressed with the quality a request can wait for.
 */
export function sendBody(req: IncomingMessage, res: ServerResponse, generated: GeneratedBody): Promise<void> {
  return sendPreparedBody(req, res, prepareBody(generated, BROTLI_QUALITY_ON_THE_FLY));
}

/** The encoding to send: the smallest one the client accepts (a q of 0 refuses it), or none. */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const item of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...parameters] = item.split(';').map((part) => part.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return ENCODINGS.find((encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0);
}

/** Whether an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks of it), or is `*`. */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Brotli's parameters for text of `size` bytes at `quality`. */
export function brotliParams(size: number, quality: number): Record<number, number> {
  return {
    [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
  };
}

function compress({ bytes, brotliQuality }: PreparedBody, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(bytes, { level: zlibConstants.Z_BEST_COMPRESSION });
  return brotliAsync(bytes, { params: brotliParams(bytes.length, brotliQuality) });
}

/** The body in `encoding`, compressed by the first request that asks for it; a failure is not kept. */
function encodedBody(prepared: PreparedBody, encoding: Encoding): Promise<Buffer> {
  let encoded = prepared.encoded.get(encoding);
  if (!encoded) {
    encoded = compress(prepared, encoding);
    encoded.catch(() => prepared.encoded.delete(encoding));
    prepared.encoded.set(encoding, encoded);
  }
  return encoded;
}

/**
 * Sends a prepared body, without hashing or compressing it again: a matching If-None-Match on a
 * 200 gets a 304, and a client that accepts brotli or gzip gets the kept compressed form, with
 * that form's ETag.
 */
export async function sendPreparedBody(
  req: IncomingMessage,
  res: ServerResponse,
  prepared: PreparedBody,
): Promise<void> {
  const { status, type, cacheControl, bytes } = prepared;
  const encoding =
    COMPRESSIBLE.test(type) && bytes.length >= MIN_GZIP_BYTES
      ? acceptedEncoding(req.headers['accept-encoding'])
      : undefined;
  const etag = encoding ? `${prepared.etag.slice(0, -1)}-${encoding}"` : prepared.etag;
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  vary(res, 'Accept-Encoding');
  if (status === 200 && ifNoneMatchNames(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  let sent = bytes;
  if (encoding) {
    try {
      sent = await encodedBody(prepared, encoding);
      res.setHeader('Content-Encoding', encoding);
    } catch {
      // Sent as it is, with the ETag of the bytes as they are.
      res.setHeader('ETag', prepared.etag);
    }
  }
  res.setHeader('Content-Length', sent.length);
  res.end(req.method === 'HEAD' ? undefined : sent);
}

/** A handler for a remote's dist: files or a plain 404, CORS for the listed origins. */
export function createStaticHandler(options: StaticOptions): RequestHandler {
  const origins = options.corsOrigins ?? [];
  return async (req, res) => {
    applyCors(req, res, origins);
    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      sendText(res, 405, 'Method not allowed');
      return;
    }
    const relativePath = safeRelativePath(req.url);
    if (relativePath === undefined) {
      sendText(res, 400, 'Bad request path');
      return;
    }
    // A file being written by a deploy, or its lock, is not part of any build: a plain 404.
    if (isHiddenPath(relativePath)) {
      sendText(res, 404, 'Not found');
      return;
    }
    const served = await sendFile(req, res, options.root, relativePath || 'index.html');
    if (!served) sendText(res, 404, 'Not found');
  };
}

/** A static part's answers by status (a remote's server registers it: `part` says which). */
export const STATIC_REQUESTS_METRIC = 'giftbox_static_requests_total';

/**
 * `handler`, its answers counted by HTTP status in `registry`: each response sent in full,
 * a 304 or a 404 as much as a file, a 500 of a handler that failed too.
 */
export function countStaticRequests(handler: RequestHandler, registry: Registry): RequestHandler {
  const requests = new Counter({
    name: STATIC_REQUESTS_METRIC,
    help: 'Requests a static part answered, by HTTP status (health checks not counted).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  return (req, res) => {
    res.once('finish', () => requests.inc({ status: String(res.statusCode) }));
    return handler(req, res);
  };
}
