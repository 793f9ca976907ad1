import Fastify from 'fastify';
import { anyHostnameOnPort } from 'server/origins';
import { type App } from '../app-context';
import { installErrorHandlers } from './error-handler';
import { installSameSiteGuard } from './same-site-guard';

/** A bare app with the guard and one state-changing route. */
async function appAllowing(allowed: Parameters<typeof installSameSiteGuard>[1]): Promise<App> {
  const app = Fastify() as unknown as App;
  installErrorHandlers(app, 1024);
  installSameSiteGuard(app, allowed);
  app.post('/change', async () => ({ changed: true }));
  await app.ready();
  return app;
}

async function post(app: App, host: string, origin: string, secFetchSite = 'same-site'): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: '/change',
    headers: { host, origin, 'sec-fetch-site': secFetchSite, 'content-type': 'application/json' },
    payload: '{}',
  });
  return response.statusCode;
}

describe('the same-site guard in the development default (the host port on any hostname)', () => {
  let app: App;
  beforeAll(async () => {
    app = await appAllowing([anyHostnameOnPort(3000)]);
  });
  afterAll(() => app.close());

  it('accepts the host page from the hostname the API was reached at', async () => {
    expect(await post(app, 'localhost:3004', 'http://localhost:3000')).toBe(200);
    expect(await post(app, '127.0.0.2:3004', 'http://127.0.0.2:3000')).toBe(200);
    expect(await post(app, '192.168.1.20:3004', 'http://192.168.1.20:3000')).toBe(200);
  });

  it('refuses a page on another hostname, on another port, or marked cross-site', async () => {
    expect(await post(app, '127.0.0.1:3004', 'http://evil.example:3000')).toBe(403);
    expect(await post(app, '127.0.0.1:3004', 'http://127.0.0.2:3000')).toBe(403);
    expect(await post(app, '127.0.0.1:3004', 'http://127.0.0.1:4000')).toBe(403);
    expect(await post(app, '127.0.0.1:3004', 'http://127.0.0.1:3000', 'cross-site')).toBe(403);
  });
});

describe('the same-site guard with HOST_ORIGIN set', () => {
  it('accepts exactly that origin', async () => {
    const app = await appAllowing(['https://gifts.example.com']);
    expect(await post(app, 'api.example.com', 'https://gifts.example.com')).toBe(200);
    expect(await post(app, 'localhost:3004', 'http://localhost:3000')).toBe(403);
    await app.close();
  });
});

describe('routes that say what else they take', () => {
  let app: App;
  beforeAll(async () => {
    app = Fastify() as unknown as App;
    installErrorHandlers(app, 1024);
    installSameSiteGuard(app, ['https://gifts.example.com']);
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post('/beacon', { config: { bodyTypes: ['text/plain'] } }, async () => ({ taken: true }));
    app.post('/report', { config: { anySite: true } }, async () => ({ taken: true }));
    app.post('/change', async () => ({ changed: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const send = (url: string, origin: string, contentType: string, secFetchSite = 'same-site') =>
    app
      .inject({
        method: 'POST',
        url,
        headers: { host: 'api.example.com', origin, 'sec-fetch-site': secFetchSite, 'content-type': contentType },
        payload: '{}',
      })
      .then((response) => response.statusCode);

  it('a beacon route takes text/plain from the site, still not from another site', async () => {
    expect(await send('/beacon', 'https://gifts.example.com', 'text/plain;charset=UTF-8')).toBe(200);
    expect(await send('/beacon', 'https://evil.example', 'text/plain;charset=UTF-8', 'cross-site')).toBe(403);
    expect(await send('/beacon', 'https://gifts.example.com', 'application/x-www-form-urlencoded')).toBe(400);
    // Every other route still takes JSON only.
    expect(await send('/change', 'https://gifts.example.com', 'text/plain;charset=UTF-8')).toBe(400);
  });

  it('a route browsers send to on their own is left alone', async () => {
    expect(await send('/report', 'https://evil.example', 'text/plain', 'cross-site')).toBe(200);
  });
});
