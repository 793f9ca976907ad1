/**
 * CORS in the development default (HOST_ORIGIN unset: the host's port on any hostname): a page
 * may read the API's answers only from the hostname the API itself was reached at, as the
 * same-site guard admits changes, so another site on the host's port reads nothing.
 */
import { type LightMyRequestResponse } from 'fastify';
import { anyHostnameOnPort } from 'server/origins';
import { type App } from '../src/app-context';
import { harnessFor } from './support/harness';
import { winGift } from './support/test-app';

const harness = harnessFor('postgres');
const API_HOST = '127.0.0.1:3004';
let app: App;

beforeEach(async () => {
  ({ app } = await harness.start({ hostOrigin: anyHostnameOnPort(3000) }));
});

const read = (url: string, origin: string | undefined): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url, headers: { host: API_HOST, ...(origin ? { origin } : {}) } });

const preflight = (origin: string): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'OPTIONS',
    url: '/api/game/plays',
    headers: {
      host: API_HOST,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key',
    },
  });

describe('CORS in development', () => {
  it('lets the host’s page on the API’s own hostname read answers, with its cookie', async () => {
    const giftId = await winGift(app);
    const response = await read(`/api/gifts/${giftId}`, 'http://127.0.0.1:3000');
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-expose-headers']).toBe('Retry-After');
    expect(response.headers.vary).toBe('Origin');
  });

  it.each(['http://elsewhere.example:3000', 'http://localhost:3000', 'http://127.0.0.1:3001'])(
    'lets %s read nothing: another hostname at the host’s port is not this deployment’s page',
    async (origin) => {
      const giftId = await winGift(app);
      const response = await read(`/api/gifts/${giftId}`, origin);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      const answer = await preflight(origin);
      expect(answer.statusCode).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['access-control-allow-methods']).toBeUndefined();
    },
  );

  it('answers the page’s preflight with the methods and the headers it asked for', async () => {
    const response = await preflight('http://127.0.0.1:3000');
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(response.headers['access-control-allow-headers']).toBe('content-type, idempotency-key');
    expect(response.headers['access-control-max-age']).toBe('600');
    expect(response.body).toBe('');
  });

  it('refuses an OPTIONS request that is no preflight with 400 in the API’s error shape', async () => {
    const response = await app.inject({ method: 'OPTIONS', url: '/api/game/plays', headers: { host: API_HOST } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      statusMessage: 'Bad Request',
      message: 'A preflight request needs Origin and Access-Control-Request-Method headers.',
    });
  });
});
