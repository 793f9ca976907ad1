/**
 * What the host's server believes of a request's forwarded headers: whether it reached the site
 * over HTTPS, for the headers only HTTPS may carry (HSTS), and the visitor's address, for its log.
 * The host's server speaks plain HTTP behind a TLS proxy or balancer: its `X-Forwarded-Proto`
 * counts only on connections from the proxies TRUST_PROXY names (server/trust-proxy), judged
 * by the library Fastify uses for the API's same setting, so both read a request alike.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr, { compile } from '@fastify/proxy-addr';
import type { TrustProxy } from 'server/trust-proxy';

export function createHttpsCheck(trustProxy: TrustProxy): (req: IncomingMessage) => boolean {
  const trusted = trustProxy === false ? () => false : compile(trustProxy);
  return (req) => {
    const forwarded = req.headers['x-forwarded-proto'];
    const remoteAddress = req.socket.remoteAddress;
    // Several values (one per proxy): the last, added by the proxy nearest to this server.
    if (typeof forwarded === 'string' && forwarded !== '' && remoteAddress && trusted(remoteAddress, 0)) {
      return (
        forwarded
          .slice(forwarded.lastIndexOf(',') + 1)
          .trim()
          .toLowerCase() === 'https'
      );
    }
    return 'encrypted' in req.socket && req.socket.encrypted === true;
  };
}

/**
 * The visitor's address, for the request log: behind the proxies TRUST_PROXY names, the address
 * their X-Forwarded-For gives (the nearest one not trusted), as the API reads it; else the peer's.
 */
export function createClientAddress(trustProxy: TrustProxy): (req: IncomingMessage) => string | undefined {
  if (trustProxy === false) return (req) => req.socket.remoteAddress;
  const trusted = compile(trustProxy);
  return (req) => (req.socket.remoteAddress === undefined ? undefined : proxyAddr(req, trusted));
}
