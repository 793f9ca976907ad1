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
