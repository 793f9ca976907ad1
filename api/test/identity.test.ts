/**
 * Who a request is: the visitor cookie is the server's own (signed, so a made-up or unsigned one
 * is a new visitor, and knowing a visitor's id is not enough to act as them), its secrets rotate
 * without logging anyone out, over https it is `__Host-` and Secure; client addresses are hashed
 * with the server's key; and an API behind a proxy without TRUST_PROXY says so in its log.
 */
import { createHash, createHmac } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { type App } from '../src/app-context';
import { readServerConfig } from '../src/config';
import { limitSubject } from '../src/http/client-ip';
import { PROXY_WARNING } from '../src/http/proxy-warning';
import { developmentVisitorCookie, signVisitorId } from '../src/http/visitor';
import { buildApp } from '../src/server';
import { harnessFor } from './support/harness';
import { complete, get, openRedeem, play, visitorCookie, visitorWithId, winGift } from './support/test-app';
import { TEST_ADDRESS_HASH_KEY, TEST_VISITOR_SECRET, testConfig } from './support/test-config';

const harness = harnessFor('postgres');
const OLD = Buffer.from('o'.repeat(32));
const NEW = Buffer.from('n'.repeat(32));

/** The gift ids `GET /api/visitor/gifts` lists for a Cookie header, and the cookie it set, if any. */
async function giftsOf(app: Parameters<typeof get>[0], cookie: string) {
  const response = await get(app, '/api/visitor/gifts', { cookie });
  const setCookie = response.headers['set-cookie'];
  return {
    ids: response.json<{ gifts: { giftId: string }[] }>().gifts.map((gift) => gift.giftId),
    setCookie: setCookie === undefined ? undefined : String(setCookie),
  };
}

describe('the visitor cookie', () => {
  const id = 'AAAAAAAAAAAAAAAAAAAAAAAA';
  const extraApps: App[] = [];
  afterEach(async () => {
    await Promise.all(extraApps.splice(0).map((app) => app.close()));
  });

  /** Another API process on the test's database, signing with `secrets`. */
  async function appWith(secrets: Buffer[]): Promise<App> {
    const app = await buildApp({
      config: testConfig({ visitorCookie: developmentVisitorCookie(secrets) }),
      db: harness.db,
    });
    extraApps.push(app);
    return app;
  }

  it('is a new visitor when unsigned or signed by anyone else: knowing an id is not being that visitor', async () => {
    const { app } = await harness.start();
    const giftId = await winGift(app, { cookie: visitorWithId(id) });
    const redeemId = await openRedeem(app, giftId, { cookie: visitorWithId(id) });
    expect((await complete(app, redeemId, 'jane@example.com', { cookie: visitorWithId(id) })).statusCode).toBe(200);
    const forged = [
      `p_visitor=${id}`,
      `p_visitor=${signVisitorId(id, developmentVisitorCookie([OLD]))}`,
      `p_visitor=${id}.${'A'.repeat(32)}`,
    ];
    for (const cookie of forged) {
      const seen = await giftsOf(app, cookie);
      expect(seen.ids).toEqual([]);
      // A fresh, signed cookie for a new id.
      expect(seen.setCookie).toMatch(/^p_visitor=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{32};/);
      expect(seen.setCookie).not.toContain(id);
      // The voucher is shown again to the signed cookie only: a forged one with its id gets 409.
      expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(409);
    }
    expect((await giftsOf(app, visitorWithId(id))).ids).toEqual([giftId]);
  });

  it('rotates: the first secret signs, any verifies, and a cookie of an older secret is signed again', async () => {
    // Three deployments of the API on one database: before, during and after the rotation.
    const before = await harness.start({ visitorCookie: developmentVisitorCookie([OLD]) });
    const first = await play(before.app);
    const oldCookie = visitorCookie(first);
    const giftId = first.json<{ gift: { giftId: string } }>().gift.giftId;
    const during = await appWith([NEW, OLD]);
    const seen = await giftsOf(during, oldCookie);
    expect(seen.ids).toEqual([giftId]);
    const [visitorId = ''] = oldCookie.slice('p_visitor='.length).split('.');
    const resigned = `p_visitor=${signVisitorId(visitorId, developmentVisitorCookie([NEW]))}`;
    expect(seen.setCookie?.split(';')[0]).toBe(resigned);
    expect(await giftsOf(during, resigned)).toEqual({ ids: [giftId], setCookie: undefined });

    const after = await appWith([NEW]);
    expect((await giftsOf(after, resigned)).ids).toEqual([giftId]);
    expect((await giftsOf(after, oldCookie)).ids).toEqual([]);
  });

  it('is __Host-p_visitor, Secure, over https, and the plain name is not read there', async () => {
    const { app } = await harness.start({
      hostOrigin: 'https://gifts.example.com',
      visitorCookie: { name: '__Host-p_visitor', secure: true, secrets: [TEST_VISITOR_SECRET] },
    });
    const response = await play(app, { cookie: visitorWithId(id) });
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(
      /^__Host-p_visitor=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{32}; Max-Age=31536000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(header).not.toContain(id);
    const again = await play(app, { cookie: header.split(';')[0] });
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('needs its secrets in production: HOST_ORIGIN without VISITOR_COOKIE_SECRETS refuses to start', () => {
    expect(() => readServerConfig({ HOST_ORIGIN: 'https://gifts.example.com' })).toThrow(
      /^VISITOR_COOKIE_SECRETS must be set when HOST_ORIGIN is \(a production deployment\)/,
    );
    const short = 'hunter2-is-too-short';
    expect(() => readServerConfig({ VISITOR_COOKIE_SECRETS: `${'n'.repeat(32)},${short}` })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /^VISITOR_COOKIE_SECRETS must hold secrets of at least 32 characters.*got one of 20 characters$/,
        ),
      }),
    );
    expect(() => readServerConfig({ VISITOR_COOKIE_SECRETS: short })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(short) }),
    );
    expect(() => readServerConfig({ IP_HASH_SECRET: 'short' })).toThrow(/^IP_HASH_SECRET must hold secrets/);
  });
});

describe('address hashes', () => {
  it('are keyed with the server’s secret, so hashing every IPv4 address does not find them', async () => {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    // Health checks are logged at debug.
    const { app } = await harness.start({ logLevel: 'debug' }, { logStream });
    await get(app, '/api/health', { ip: '203.0.113.9' });
    const logged = lines.map((line) => JSON.parse(line) as { req?: { addressHash?: string } });
    const hash = logged.find((line) => line.req?.addressHash)?.req?.addressHash;
    const subject = limitSubject('203.0.113.9');
    expect(hash).not.toBe(createHash('sha256').update(subject).digest('base64url').slice(0, 32));
    expect(hash).toBe(createHmac('sha256', TEST_ADDRESS_HASH_KEY).update(subject).digest('base64url').slice(0, 32));
  });
});

describe('behind a proxy without TRUST_PROXY', () => {
  async function warnings(trustProxy: false | string[], requests: { ip: string; forwarded?: string }[]) {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const { app } = await harness.start({ logLevel: 'warn', trustProxy }, { logStream });
    for (const { ip, forwarded } of requests)
      await get(app, '/api/health', { ip, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });
    return lines.filter((line) => line.includes('TRUST_PROXY')).map((line) => JSON.parse(line) as { msg: string });
  }

  it('warns once, naming TRUST_PROXY, when X-Forwarded-For comes from a private address', async () => {
    const logged = await warnings(false, [
      { ip: '127.0.0.1' },
      { ip: '127.0.0.1', forwarded: '198.51.100.1' },
      { ip: '10.0.0.2', forwarded: '198.51.100.2' },
    ]);
    expect(logged).toEqual([expect.objectContaining({ msg: PROXY_WARNING, level: 40 })]);
  });

  it('says nothing with TRUST_PROXY set, or when the header comes from a public address', async () => {
    expect(await warnings(['127.0.0.1'], [{ ip: '127.0.0.1', forwarded: '198.51.100.1' }])).toEqual([]);
    expect(await warnings(false, [{ ip: '203.0.113.5', forwarded: '198.51.100.1' }])).toEqual([]);
  });
});
