/**
 * `POST /api/telemetry/csp`: the reports browsers send by themselves when a page's content
 * security policy blocks something, in the Reporting API's format and the older one. Counted by
 * the route pattern of the page, the directive and what was blocked; logged for the operator
 * with the blocked origin, never the page's address.
 */
import { PassThrough } from 'node:stream';
import { type Registry } from 'prom-client';
import { type App } from '../src/app-context';
import { harnessFor } from './support/harness';
import { valueOf } from './support/metrics';
import { DEFAULT_IP } from './support/test-app';
import { DEFAULT_BUILD_SOURCES } from './support/test-config';

const harness = harnessFor('postgres');
const CSP = 'giftbox_csp_violations_total';
const GIFT_PAGE = 'https://gifts.example.com/gifts/AbCdEfGhIjKlMnOpQrStUvWx';
let app: App;
let metrics: Registry;
let lines: string[];

beforeEach(async () => {
  lines = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  ({ app, metrics } = await harness.start(
    {
      hostOrigin: 'https://gifts.example.com',
      apiOrigin: 'https://api.gifts.example.com',
      builds: { sources: { ...DEFAULT_BUILD_SOURCES, host: 'https://gifts.example.com/_app/builds/latest.json' } },
      logLevel: 'info',
    },
    { logStream },
  ));
});

/** As a browser sends it: on its own, without the page's Origin, to the API's host. */
function report(contentType: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/telemetry/csp',
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': contentType, host: 'api.gifts.example.com', ...headers },
    remoteAddress: DEFAULT_IP,
  });
}

const violation = (body: Record<string, unknown>) => ({
  type: 'csp-violation',
  age: 10,
  url: GIFT_PAGE,
  user_agent: 'Mozilla/5.0',
  body: { documentURL: GIFT_PAGE, disposition: 'enforce', originalPolicy: "script-src 'self'", ...body },
});

describe('Reporting API reports (application/reports+json)', () => {
  it('counts each CSP violation by route pattern, directive and blocked origin; other reports are ignored', async () => {
    const response = await report('application/reports+json', [
      violation({ blockedURL: 'https://evil.example/steal.js?code=ABCD', effectiveDirective: 'script-src-elem' }),
      violation({ blockedURL: 'inline', effectiveDirective: 'style-src-attr' }),
      violation({ blockedURL: 'https://gifts.example.com/_app/x.js', effectiveDirective: 'script-src-elem' }),
      violation({ blockedURL: 'https://api.gifts.example.com/api/x', effectiveDirective: 'connect-src' }),
      violation({
        documentURL: 'https://gifts.example.com/nowhere',
        blockedURL: 'http://localhost:3003/chunk.js',
        effectiveDirective: 'navigate-to',
      }),
      { type: 'deprecation', url: GIFT_PAGE, body: { id: 'something', message: 'old' } },
    ]);
    expect(response.statusCode).toBe(204);

    const page = { route: '/gifts/:giftId' };
    expect(await valueOf(metrics, CSP, { ...page, directive: 'script-src-elem', blocked: 'other' })).toBe(1);
    expect(await valueOf(metrics, CSP, { ...page, directive: 'style-src-attr', blocked: 'inline' })).toBe(1);
    expect(
      await valueOf(metrics, CSP, { ...page, directive: 'script-src-elem', blocked: 'https://gifts.example.com' }),
    ).toBe(1);
    // The API's own origin (API_BASE_URL's).
    expect(
      await valueOf(metrics, CSP, { ...page, directive: 'connect-src', blocked: 'https://api.gifts.example.com' }),
    ).toBe(1);
    // A remote's origin (its manifest URL's); an unknown directive; a page no route matches.
    expect(await valueOf(metrics, CSP, { route: '*', directive: 'other', blocked: 'http://localhost:3003' })).toBe(1);
    expect(await valueOf(metrics, CSP)).toBe(5);
    // The browsers' own reports, apart from what the pages tell of the same violations.
    expect(await valueOf(metrics, CSP, { source: 'report' })).toBe(5);
    expect(await valueOf(metrics, 'giftbox_telemetry_batches_total', { result: 'accepted' })).toBe(1);
  });

  it('never takes a label from the request: a made-up Host does not make its origin known', async () => {
    const body = [violation({ blockedURL: 'https://evil.example/x.js', effectiveDirective: 'script-src' })];
    expect((await report('application/reports+json', body, { host: 'evil.example' })).statusCode).toBe(204);
    expect(await valueOf(metrics, CSP, { blocked: 'other' })).toBe(1);
    expect(await metrics.metrics()).not.toContain('evil.example');
  });

  const logged = () =>
    lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => typeof entry.msg === 'string' && entry.msg.startsWith('CSP violation'));

  it('logs a post’s violations with what was blocked, at its origin, never the page’s address', async () => {
    await report('application/reports+json', [
      violation({ blockedURL: 'https://evil.example/steal.js?code=ABCD', effectiveDirective: 'script-src-elem' }),
    ]);
    expect(logged()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'CSP violations reported',
        violations: 1,
        reported: [
          {
            route: '/gifts/:giftId',
            directive: 'script-src-elem',
            blocked: 'https://evil.example',
            disposition: 'enforce',
            count: 1,
          },
        ],
      }),
    ]);
    const log = lines.join('\n');
    expect(log).not.toContain('AbCdEfGhIjKlMnOpQrStUvWx');
    expect(log).not.toContain('steal.js');
    expect(log).not.toContain('ABCD');
  });

  it('logs a post of many violations in one line, alike ones counted together', async () => {
    const body = [
      ...Array.from({ length: 25 }, (_, n) =>
        violation({ blockedURL: `https://evil.example/${n}.js`, effectiveDirective: 'script-src-elem' }),
      ),
      ...Array.from({ length: 15 }, () => violation({ blockedURL: 'inline', effectiveDirective: 'style-src-attr' })),
    ];
    expect((await report('application/reports+json', body)).statusCode).toBe(204);
    expect(await valueOf(metrics, CSP)).toBe(40);
    const posts = logged();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      violations: 40,
      reported: [
        expect.objectContaining({ blocked: 'https://evil.example', count: 25 }),
        expect.objectContaining({ directive: 'style-src-attr', blocked: 'inline', count: 15 }),
      ],
    });
  });

  it('is taken from any page or none: browsers send reports without the page', async () => {
    const body = [violation({ blockedURL: 'eval', effectiveDirective: 'script-src' })];
    expect((await report('application/reports+json', body, { origin: 'https://elsewhere.example' })).statusCode).toBe(
      204,
    );
    expect((await report('application/reports+json', body, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(204);
    expect(await valueOf(metrics, CSP, { directive: 'script-src', blocked: 'eval' })).toBe(2);
  });
});

describe('legacy reports (application/csp-report)', () => {
  it('counts the violation, by its effective or violated directive', async () => {
    const legacy = (fields: Record<string, string>) => ({
      'csp-report': {
        'document-uri': 'https://gifts.example.com/redeem/AbCdEfGhIjKlMnOpQrStUvWx',
        referrer: '',
        'original-policy': "default-src 'self'",
        ...fields,
      },
    });
    expect(
      (
        await report(
          'application/csp-report',
          legacy({ 'blocked-uri': 'data', 'effective-directive': 'img-src', 'violated-directive': 'img-src' }),
        )
      ).statusCode,
    ).toBe(204);
    expect(
      (
        await report(
          'application/json',
          legacy({ 'blocked-uri': 'https://fonts.example/f.woff2', 'violated-directive': "font-src 'self'" }),
        )
      ).statusCode,
    ).toBe(204);

    expect(await valueOf(metrics, CSP, { route: '/redeem/:redeemId', directive: 'img-src', blocked: 'data' })).toBe(1);
    expect(await valueOf(metrics, CSP, { route: '/redeem/:redeemId', directive: 'font-src', blocked: 'other' })).toBe(
      1,
    );
  });
});

describe('a refused report changes nothing but its result’s count', () => {
  it.each([
    ['no directive', { 'csp-report': { 'document-uri': GIFT_PAGE } }],
    ['a violation without its page', [{ type: 'csp-violation', body: { effectiveDirective: 'img-src' } }]],
    ['an empty list', []],
    ['a number', 7],
  ])('is a 400 with %s', async (_, body) => {
    const response = await report('application/reports+json', body);
    expect(response.statusCode).toBe(400);
    expect(await valueOf(metrics, CSP)).toBe(0);
    expect(await valueOf(metrics, 'giftbox_telemetry_batches_total', { result: 'invalid' })).toBe(1);
  });

  it('is a 400 as plain text, and a 413 over 16 KiB', async () => {
    const body = [violation({ blockedURL: 'eval', effectiveDirective: 'script-src' })];
    expect((await report('text/plain', body)).statusCode).toBe(400);
    const large = await report('application/reports+json', `${JSON.stringify(body)}${' '.repeat(16 * 1024)}`);
    expect(large.statusCode).toBe(413);
    expect(await valueOf(metrics, CSP)).toBe(0);
    expect(await valueOf(metrics, 'giftbox_telemetry_batches_total', { result: 'too_large' })).toBe(1);
  });

  it('is a 429 past the address’s budget, kept apart from the batches’', async () => {
    ({ app, metrics } = await harness.start({ limits: { telemetryBatchesPerIpPerMinute: 1 } }));
    const body = [violation({ blockedURL: 'eval', effectiveDirective: 'script-src' })];
    expect((await report('application/reports+json', body)).statusCode).toBe(204);
    expect((await report('application/reports+json', body)).statusCode).toBe(429);
    expect(await valueOf(metrics, CSP)).toBe(1);
  });
});
