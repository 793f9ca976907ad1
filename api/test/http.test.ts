/** What every route shares: the error body, body parsing, CORS, headers, health. */
import { type App } from '../src/app-context';
import { harnessFor } from './support/harness';
import { get, post } from './support/test-app';

const harness = harnessFor('postgres');
let app: App;

beforeEach(async () => {
  ({ app } = await harness.start({ corsOrigins: ['http://localhost:4301'] }));
});

const errorBody = (statusCode: number, statusMessage: string, message: string | RegExp) => ({
  statusCode,
  statusMessage,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
});

describe('GET /api/health', () => {
  it('answers ok once the database answers', async () => {
    const response = await get(app, '/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('the one error body', () => {
  it('answers an unknown API route with 404', async () => {
    const response = await get(app, '/api/nothing-here?x=1');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(errorBody(404, 'Not Found', 'No API route for GET /api/nothing-here.'));
  });

  it('answers a known path with the wrong method with 404', async () => {
    const response = await get(app, '/api/game/plays');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(errorBody(404, 'Not Found', 'No API route for GET /api/game/plays.'));
  });

  it('answers bad JSON with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/game/plays',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(400, 'Bad Request', 'The request body is not valid JSON.'));
  });

  it('answers an empty JSON body with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/game/plays',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(400, 'Bad Request', 'The request body is not valid JSON.'));
  });

  it('answers a body over 4 KiB with 400', async () => {
    const response = await post(app, '/api/redeems/AAAAAAAAAAAAAAAAAAAAAAAA/complete', {
      email: `${'a'.repeat(5000)}@example.com`,
      acceptTerms: true,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      errorBody(400, 'Bad Request', 'The request body is too large: at most 4096 bytes.'),
    );
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers a %s body with 400',
    async (type) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/game/plays',
        headers: { 'content-type': type },
        payload: 'a=1',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        errorBody(400, 'Bad Request', 'Send the request body as JSON (Content-Type: application/json).'),
      );
    },
  );

  it('answers unknown fields with 400', async () => {
    const response = await post(app, '/api/game/plays', { cheat: true });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(400, 'Bad Request', 'Invalid request body: Unrecognized key: "cheat"'));
  });

  it('answers a body of the wrong type with 400', async () => {
    const response = await post(app, '/api/game/plays', [1, 2]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(400, 'Bad Request', /^Invalid request body: .*expected object/));
  });
});

describe('headers', () => {
  it('allows the host origin with credentials, and exposes Retry-After', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://localhost:3000' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-expose-headers']).toBe('Retry-After');
  });

  it('allows the extra CORS_ORIGINS', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://localhost:4301' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:4301');
  });

  it('answers a preflight from the host origin', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/game/plays',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
  });

  it('does not allow other origins', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('forbids caching answers', async () => {
    const response = await get(app, '/api/health');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('failures', () => {
  it('answers an unexpected failure with 500 and no details', async () => {
    const broken = await harness.start(
      {},
      { db: (db) => ({ ...db, query: () => Promise.reject(new Error('connection to 10.0.0.5 refused')) }) },
    );
    const response = await get(broken.app, '/api/health');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toStrictEqual({
      statusCode: 500,
      statusMessage: 'Internal Server Error',
      message: 'Internal Server Error',
    });
    expect(response.body).not.toMatch(/10\.0\.0\.5|at |stack/);
  });
});
