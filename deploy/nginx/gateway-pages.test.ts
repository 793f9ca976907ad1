/**
 * @jest-environment node
 *
 * What nginx itself answers, with the site as `npm run nginx-config` renders it on Debian's nginx,
 * when no process behind it answers (every host's server and API process down): a page in the
 * app's look with plain words for a visitor, and the API's error body under /api/.
 */
import { apiErrorBodySchema } from 'shared/api/contract';
import { freePort } from 'testbed/free-port';
import { startStandInSite, type StandInSite } from '../testing/stand-in-site';
import { GATEWAY_MESSAGES } from './error-pages';

let site: StandInSite | undefined;
let origin: string;

beforeAll(async () => {
  // Ports nothing listens on: every process behind nginx is down.
  site = await startStandInSite('nginx-gateway', { apiPorts: [await freePort()] });
  origin = site.origin;
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

test("a page nginx cannot get is the app's error page in plain words, not nginx's own", async () => {
  const response = await fetch(`${origin}/gifts/GiftAbCdEfGhIjKlMnOpQrSt`, { headers: { accept: 'text/html' } });
  const page = await response.text();
  expect(response.status).toBe(502);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(page).not.toContain('nginx');
  expect(page).toContain('<p class="p-error__code">502</p>');
  expect(page).toContain('<h1 id="p-error-title" class="p-error__title">Internal Server Error</h1>');
  expect(page).toContain(`<p class="p-error__message">${GATEWAY_MESSAGES[502]}</p>`);
  expect(page).toContain('<a class="p-button" href="/">Back to home</a>');
  // The app's colours, light and dark, and nothing to load: no script, no stylesheet file.
  expect(page).toContain('--p-color-primary: #c2185b');
  expect(page).toContain('@media (prefers-color-scheme: dark)');
  expect(page).not.toMatch(/<script|<link/);
});

test("an API request nginx cannot get has the API's error body", async () => {
  for (const [method, path] of [
    ['GET', '/api/gifts/GiftAbCdEfGhIjKlMnOpQrSt'],
    ['POST', '/api/game/plays'],
  ] as const) {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect([method, response.status, response.headers.get('content-type')]).toEqual([method, 502, 'application/json']);
    expect(apiErrorBodySchema.parse(await response.json())).toEqual({
      statusCode: 502,
      statusMessage: 'Bad Gateway',
      message: GATEWAY_MESSAGES[502],
    });
  }
});
