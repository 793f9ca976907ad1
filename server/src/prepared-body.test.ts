/**
 * @jest-environment node
 *
 * A body prepared once and sent many times (the host's pages): its strong ETag, revalidation,
 * and the compressed forms a client accepts, each made once and kept.
 */
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncoding, brotliParams } from './encoding';
import { createLogger } from './log';
import { listenPart } from './part-server';
import {
  BROTLI_QUALITY_KEPT,
  BROTLI_QUALITY_ON_THE_FLY,
  prepareBody,
  sendBody,
  sendPreparedBody,
  type PreparedBody,
} from './prepared-body';

const PAGE = `<!doctype html><html><body>${'<p>A page every visitor gets alike.</p>'.repeat(60)}</body></html>\n`;
const SMALL = '<!doctype html><p>Short.</p>\n';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
/** What the server sends, by path. */
const bodies = new Map<string, PreparedBody>();

/** A request with exactly the headers given, its body as sent (no decompression). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const page = { type: 'text/html; charset=utf-8', cacheControl: 'no-cache' };
  bodies.set('/page', prepareBody({ ...page, status: 200, body: PAGE }));
  bodies.set('/small', prepareBody({ ...page, status: 200, body: SMALL }));
  bodies.set('/missing', prepareBody({ ...page, status: 404, body: PAGE }));
  const routes = (app: FastifyInstance) => {
    // A body made for this request alone, as a page rendered with a visitor's data is.
    app.route({
      method: ['GET', 'HEAD'],
      url: '/once',
      handler: (request, reply) => sendBody(request, reply, { ...page, status: 200, body: PAGE }),
    });
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      handler: (request, reply) => sendPreparedBody(request, reply, bodies.get(request.url) as PreparedBody),
    });
  };
  const options = { buildFile: '/nonexistent', listenHost: '127.0.0.1', log: createLogger('test', 'silent') };
  server = (await listenPart('test', 0, routes, options)).server;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('sendPreparedBody', () => {
  it('sends the body as it is, with a strong ETag, to a client that accepts no encoding', async () => {
    const res = await raw('/page');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(PAGE);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(PAGE)));
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it.each([
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['br;q=0.5, gzip', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ])('sends Accept-Encoding %p the %s form, with its own ETag', async (accept, encoding, decode) => {
    const plain = await raw('/page');
    const res = await raw('/page', { 'Accept-Encoding': accept });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.body.length).toBeLessThan(Buffer.byteLength(PAGE));
    expect(decode(res.body).toString()).toBe(PAGE);
    expect(res.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-${encoding}"`);
  });

  it('compresses a body once for every request that accepts the same encoding', async () => {
    const prepared = bodies.get('/page') as PreparedBody;
    const first = await raw('/page', { 'Accept-Encoding': 'br' });
    const kept = prepared.encoded.get('br');
    const second = await raw('/page', { 'Accept-Encoding': 'br' });
    expect(prepared.encoded.get('br')).toBe(kept);
    expect(second.body.equals(first.body)).toBe(true);
  });

  it.each(['gzip;q=0', 'identity', 'deflate'])('sends Accept-Encoding %p the body as it is', async (accept) => {
    const res = await raw('/page', { 'Accept-Encoding': accept });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(PAGE);
  });

  it('sends a body under 1 KiB as it is, whatever the client accepts', async () => {
    const res = await raw('/small', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(SMALL);
  });

  it.each([
    ['the ETag itself', (etag: string) => etag],
    ['a list that holds it', (etag: string) => `"other", ${etag}`],
    ['its weak form', (etag: string) => `W/${etag}`],
    ['*', () => '*'],
  ])('answers If-None-Match naming the form it would send (%s) with an empty 304', async (_, header) => {
    for (const accept of ['', 'br', 'gzip']) {
      const first = await raw('/page', { 'Accept-Encoding': accept });
      const etag = String(first.headers.etag);
      const again = await raw('/page', { 'Accept-Encoding': accept, 'If-None-Match': header(etag) });
      expect([accept, again.status, again.body.length]).toEqual([accept, 304, 0]);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers the ETag of another form, or of another body, with the body', async () => {
    const gzipped = await raw('/page', { 'Accept-Encoding': 'gzip' });
    const res = await raw('/page', { 'Accept-Encoding': 'br', 'If-None-Match': String(gzipped.headers.etag) });
    expect(res.status).toBe(200);
    expect(brotliDecompressSync(res.body).toString()).toBe(PAGE);
    const small = await raw('/small');
    const other = await raw('/page', { 'If-None-Match': String(small.headers.etag) });
    expect(other.status).toBe(200);
    expect(other.body.toString()).toBe(PAGE);
  });

  it('never turns a 404 into a 304', async () => {
    const first = await raw('/missing');
    const again = await raw('/missing', { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(404);
    expect(again.body.toString()).toBe(PAGE);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await raw('/page', { 'Accept-Encoding': 'br' });
    const head = await raw('/page', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });
});

describe("brotli's quality", () => {
  /** PAGE in brotli at `quality`, as the server compresses text. */
  const brotliAt = (quality: number) =>
    brotliCompressSync(Buffer.from(PAGE), { params: brotliParams(Buffer.byteLength(PAGE), quality) });

  it('is the measured on-the-fly quality for a body made for one request, and 11 for a body kept', async () => {
    expect([BROTLI_QUALITY_ON_THE_FLY, BROTLI_QUALITY_KEPT]).toEqual([5, 11]);
    // The two qualities give different bytes for this body, so each answer says which it was made with.
    expect(brotliAt(BROTLI_QUALITY_ON_THE_FLY).equals(brotliAt(BROTLI_QUALITY_KEPT))).toBe(false);
    const once = await raw('/once', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(once.headers['content-encoding']).toBe('br');
    expect(once.body.equals(brotliAt(BROTLI_QUALITY_ON_THE_FLY))).toBe(true);
    const kept = await raw('/page', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(kept.body.equals(brotliAt(BROTLI_QUALITY_KEPT))).toBe(true);
  });

  it('is the on-the-fly quality for a body prepared for one request', async () => {
    const prepared = prepareBody(
      { type: 'text/html; charset=utf-8', cacheControl: 'no-store', status: 200, body: PAGE },
      BROTLI_QUALITY_ON_THE_FLY,
    );
    bodies.set('/pinned', prepared);
    const res = await raw('/pinned', { 'Accept-Encoding': 'br' });
    expect(res.body.equals(brotliAt(BROTLI_QUALITY_ON_THE_FLY))).toBe(true);
  });
});

describe('acceptedEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['br; q=0, gzip; q=0', undefined],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate, identity', undefined],
  ])('picks from %p: %p', (header, encoding) => {
    expect(acceptedEncoding(header)).toBe(encoding);
  });
});
