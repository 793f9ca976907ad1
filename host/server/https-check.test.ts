/** @jest-environment node */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TrustProxy } from 'server/trust-proxy';
import { createClientAddress, createHttpsCheck } from './https-check';

const servers: Server[] = [];

/** A real server on loopback that answers whether the check took the request for HTTPS. */
async function checking(trustProxy: TrustProxy): Promise<number> {
  const isHttps = createHttpsCheck(trustProxy);
  const server = createServer((req, res) => res.end(String(isHttps(req))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

function askedOverHttps(port: number, forwardedProto?: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const headers = forwardedProto === undefined ? {} : { 'x-forwarded-proto': forwardedProto };
    const req = request({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body === 'true'));
    });
    req.on('error', reject);
    req.end();
  });
}

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('whether a request came over HTTPS', () => {
  it('believes no X-Forwarded-Proto without TRUST_PROXY: any client could send one', async () => {
    const port = await checking(false);
    expect(await askedOverHttps(port, 'https')).toBe(false);
    expect(await askedOverHttps(port)).toBe(false);
  });

  it('believes X-Forwarded-Proto from a proxy TRUST_PROXY names', async () => {
    const port = await checking(['loopback']);
    expect(await askedOverHttps(port, 'https')).toBe(true);
    expect(await askedOverHttps(port, 'http')).toBe(false);
    expect(await askedOverHttps(port)).toBe(false);
  });

  it('reads the value the nearest proxy added, the last one', async () => {
    const port = await checking(['127.0.0.1']);
    expect(await askedOverHttps(port, 'http, https')).toBe(true);
    expect(await askedOverHttps(port, 'https,http')).toBe(false);
  });

  it('ignores X-Forwarded-Proto from a connection that is not from a named proxy', async () => {
    const port = await checking(['10.0.0.0/8', '2001:db8::/32']);
    expect(await askedOverHttps(port, 'https')).toBe(false);
  });

  it("takes the connection's own TLS for HTTPS", () => {
    const tls = {
      headers: {},
      socket: { encrypted: true, remoteAddress: '203.0.113.9' },
    } as unknown as IncomingMessage;
    expect(createHttpsCheck(false)(tls)).toBe(true);
    // A trusted proxy's word wins over the connection to it.
    const viaProxy = {
      headers: { 'x-forwarded-proto': 'http' },
      socket: { encrypted: true, remoteAddress: '10.1.2.3' },
    } as unknown as IncomingMessage;
    expect(createHttpsCheck(['10.0.0.0/8'])(viaProxy)).toBe(false);
  });
});

describe("the visitor's address, for the request log", () => {
  /** A real server on loopback that answers the address it took for the visitor's. */
  async function addressOf(trustProxy: TrustProxy, forwardedFor: string): Promise<string> {
    const clientAddress = createClientAddress(trustProxy);
    const server = createServer((req, res) => res.end(String(clientAddress(req))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': forwardedFor } });
    return response.text();
  }

  it("is X-Forwarded-For's from a proxy TRUST_PROXY names", async () => {
    expect(await addressOf(['loopback'], '203.0.113.7')).toBe('203.0.113.7');
  });

  it("is the peer's without TRUST_PROXY, or from a proxy it does not name: any client could send one", async () => {
    expect(await addressOf(false, '203.0.113.7')).toMatch(/127\.0\.0\.1$/);
    expect(await addressOf(['10.0.0.2'], '203.0.113.7')).toMatch(/127\.0\.0\.1$/);
  });
});
