/**
 * Bodies the servers generate (the host's pages, its robots.txt): hashed once for a strong ETag,
 * each compressed form made the first time a client accepts it and kept with the body, so a page
 * sent many times is compressed once. @fastify/compress compresses on every send, which a kept
 * page must not pay.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip as gzipCallback } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptedEncoding,
  brotliParams,
  COMPRESSIBLE,
  type Encoding,
  ifNoneMatchNames,
  MIN_COMPRESSED_BYTES,
  vary,
} from './encoding';

const gzipAsync = promisify(gzipCallback);
const brotliAsync = promisify(brotliCompress);

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
export function sendBody(request: FastifyRequest, reply: FastifyReply, generated: GeneratedBody): Promise<void> {
  return sendPreparedBody(request, reply, prepareBody(generated, BROTLI_QUALITY_ON_THE_FLY));
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
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedBody,
): Promise<void> {
  const { status, type, cacheControl, bytes } = prepared;
  const encoding =
    COMPRESSIBLE.test(type) && bytes.length >= MIN_COMPRESSED_BYTES
      ? acceptedEncoding(request.headers['accept-encoding'])
      : undefined;
  const etag = encoding ? `${prepared.etag.slice(0, -1)}-${encoding}"` : prepared.etag;
  reply
    .header('Content-Type', type)
    .header('Cache-Control', cacheControl)
    .header('ETag', etag)
    .header('X-Content-Type-Options', 'nosniff');
  vary(reply, 'Accept-Encoding');
  if (status === 200 && ifNoneMatchNames(request.headers['if-none-match'], etag)) {
    await reply.code(304).send();
    return;
  }
  let sent = bytes;
  if (encoding) {
    try {
      sent = await encodedBody(prepared, encoding);
      reply.header('Content-Encoding', encoding);
    } catch {
      // Sent as it is, with the ETag of the bytes as they are.
      reply.header('ETag', prepared.etag);
    }
  }
  await reply
    .code(status)
    .header('Content-Length', sent.length)
    .send(request.method === 'HEAD' ? undefined : sent);
}
