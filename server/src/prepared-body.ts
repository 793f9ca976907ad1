/**
 * Generated bodies hashed once for a strong ETag, each compressed form made once and kept:
 * @fastify/compress compresses on every send, which a kept page must not pay.
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

/** A request waits for it; figures in decision 0032. */
export const BROTLI_QUALITY_ON_THE_FLY = 5;
/** Paid once per kept page, which a client cannot multiply. */
export const BROTLI_QUALITY_KEPT = 11;

export interface PreparedBody {
  readonly status: number;
  readonly type: string;
  readonly cacheControl: string;
  readonly bytes: Buffer;
  /** Each compressed form has its own (`"…-br"`, `"…-gzip"`). */
  readonly etag: string;
  readonly encoded: Map<Encoding, Promise<Buffer>>;
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

/** A matching If-None-Match on a 200 gets a 304; a compressed form is sent with its own ETag. */
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
      reply.header('ETag', prepared.etag);
    }
  }
  await reply
    .code(status)
    .header('Content-Length', sent.length)
    .send(request.method === 'HEAD' ? undefined : sent);
}
