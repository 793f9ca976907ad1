/**
 * Built files, each answered from the one file it opened, so a file a deploy renames over goes
 * out whole (@fastify/send looks the path up twice). Dot paths (a deploy's lock and temporary
 * files) are never served.
 */
import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodePath } from 'shared/url-path';
import { cacheControlFor } from './cache-policy';
import { COMPRESSIBLE, MIN_COMPRESSED_BYTES, vary } from './encoding';

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

export function safeRelativePath(url: string | undefined): string | undefined {
  const pathname = (url ?? '/').split('?')[0]?.split('#')[0] ?? '/';
  const decoded = decodePath(pathname);
  if (decoded === undefined || decoded.includes('\0')) return undefined;
  const normalised = normalize(decoded).replace(/^([/\\])+/, '');
  if (normalised.startsWith('..') || normalised.split(/[/\\]/).includes('..')) return undefined;
  return normalised.split(sep).join('/');
}

export function isHiddenPath(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.startsWith('.'));
}

async function openFile(path: string): Promise<{ file: FileHandle; stats: Stats } | undefined> {
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    const stats = await file.stat();
    if (stats.isFile()) return { file, stats };
  } catch {
    // Unreadable: a miss.
  }
  await file?.close();
  return undefined;
}

/** False when there is no such file: the caller decides what a miss means. */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  relativePath: string,
): Promise<boolean> {
  const opened = await openFile(join(root, relativePath));
  if (!opened) return false;
  const { file, stats } = opened;
  const type = MIME_TYPES[extname(relativePath).toLowerCase()] ?? 'application/octet-stream';
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const compressible = COMPRESSIBLE.test(type) && stats.size >= MIN_COMPRESSED_BYTES;
  reply.header('Content-Type', type).header('Cache-Control', cacheControlFor(relativePath)).header('ETag', etag);
  if (compressible) vary(reply, 'Accept-Encoding');
  reply.header('Last-Modified', stats.mtime.toUTCString()).header('X-Content-Type-Options', 'nosniff');
  if (request.headers['if-none-match'] === etag) {
    await file.close();
    await reply.code(304).send();
    return true;
  }
  const gzip = compressible && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (!gzip) reply.header('Content-Length', stats.size);
  if (request.method === 'HEAD') {
    await file.close();
    await reply.send();
    return true;
  }
  const stream = file.createReadStream();
  if (gzip) reply.header('Content-Encoding', 'gzip');
  await reply.send(gzip ? pipeline(stream, createGzip(), () => undefined) : stream);
  return true;
}
