/** What every server of ours compresses, and how a client says which form it takes. */
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyReply } from 'fastify';

export const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
export const MIN_COMPRESSED_BYTES = 1024;

/** The smallest first. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * Adds to the Vary header. A file that may be sent compressed varies with Accept-Encoding whoever
 * serves it, or a shared cache could hand compressed bytes to a client that did not ask for them.
 */
export function vary(reply: FastifyReply, header: string): void {
  const current = String(reply.getHeader('Vary') ?? '');
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (!names.includes(header.toLowerCase())) reply.header('Vary', current ? `${current}, ${header}` : header);
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

export function brotliParams(size: number, quality: number): Record<number, number> {
  return {
    [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
  };
}
