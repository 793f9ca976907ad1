/**
 * @jest-environment node
 *
 * What nginx itself answers, with the site as `npm run nginx-config` renders it on Debian's nginx,
 * when no process behind it answers (every host's server and API process down): a page in the
 * app's look with plain words for a visitor, and the API's error body under /api/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiErrorBodySchema } from 'shared/api/contract';
import { freePort } from 'testbed/free-port';
import { startSiteFile, type RunningNginx } from 'testbed/nginx';
import { stopProcess } from 'testbed/process';
import { GATEWAY_MESSAGES } from './error-pages';
import { renderNginxConfig } from './render-config';

let dir: string;
let nginx: RunningNginx | undefined;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nginx-gateway-'));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'remotes'));
  // Ports nothing listens on: every process behind nginx is down.
  const [port, statusPort, hostPort, apiPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  origin = `http://127.0.0.1:${port}`;
  nginx = await startSiteFile(
    dir,
    renderNginxConfig({
      GIFT_BOX_API_SERVERS: `127.0.0.1:${apiPort}`,
      GIFT_BOX_HOST_SERVERS: `127.0.0.1:${hostPort}`,
      GIFT_BOX_HOST_DIST: join(dir, 'dist'),
      GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
      GIFT_BOX_LISTEN: `127.0.0.1:${port}`,
      GIFT_BOX_STATUS_PORT: String(statusPort),
      GIFT_BOX_ACCESS_LOG: 'off',
    }),
    statusPort,
  );
}, 60_000);

afterAll(async () => {
  if (nginx) await stopProcess(nginx);
  rmSync(dir, { recursive: true, force: true });
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
