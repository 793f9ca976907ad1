/**
 * What Fastify and Node refuse before any route runs is answered in the one error shape too,
 * `{ statusCode, statusMessage, message }`, over real HTTP on loopback: a URL with a broken
 * %-escape, a path parameter over Fastify's length, a URL over Node's header size, a request
 * that is not HTTP or that never finishes arriving.
 */
import { createServer, request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { type App } from '../src/app-context';
import { answerClientError } from '../src/http/error-handler';
import { harnessFor } from './support/harness';

const harness = harnessFor('postgres');
let app: App;
let port: number;

beforeEach(async () => {
  ({ app } = await harness.start());
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Writes `raw` on a fresh connection; everything the server sent until it closed. */
function sendRaw(raw: string, to = port): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect({ host: '127.0.0.1', port: to }, () => socket.write(raw));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

const shape = (statusCode: number, statusMessage: string, message: string) => ({
  statusCode,
  statusMessage,
  message,
});

it('answers a URL with a malformed %-escape with 400', async () => {
  const answer = await send('/api/redeems/%E0%A4%A');
  expect(answer.status).toBe(400);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(answer.body)).toStrictEqual(
    shape(400, 'Bad Request', 'The request URL is not valid: it has a malformed %-escape.'),
  );
});

it('answers a path parameter over 100 characters with 414, without repeating it', async () => {
  const long = 'a'.repeat(150);
  for (const path of [`/api/redeems/${long}`, `/api/gifts/${long}/redeems`]) {
    const answer = await send(path);
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toStrictEqual(shape(414, 'URI Too Long', 'The request URL is too long.'));
  }
});

it('answers a URL longer than the headers may be with 431, and closes the connection', async () => {
  const answer = await send(`/api/gifts?${'x'.repeat(20_000)}`);
  expect(answer.status).toBe(431);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toStrictEqual(
    shape(431, 'Request Header Fields Too Large', 'The request URL or its headers are too long.'),
  );
});

it('answers a request that is not valid HTTP with 400', async () => {
  const raw = await sendRaw('GET /api/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: lots\r\n\r\n');
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
  expect(head).toContain('Content-Type: application/json; charset=utf-8');
  expect(JSON.parse(body)).toStrictEqual(
    shape(400, 'Bad Request', 'The request could not be read: it is not valid HTTP.'),
  );
});

it('answers a request whose headers never finish arriving with 408, once Node gives up on it', async () => {
  // Node's own timeout on a server of its own, shorter than the API's 10 s; the same handler.
  const slow = createServer({ requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 });
  slow.on('clientError', answerClientError);
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  try {
    const raw = await sendRaw('GET /api/health HTTP/1.1\r\nHost: localhost\r\n', (slow.address() as AddressInfo).port);
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(body)).toStrictEqual(shape(408, 'Request Timeout', 'The request took too long to arrive.'));
  } finally {
    await new Promise((resolve) => slow.close(resolve));
  }
});
