/**
 * Whether a request reached the site over HTTPS, for the headers only HTTPS may carry (HSTS).
 * The host's server speaks plain HTTP behind a TLS proxy or balancer: its `X-Forwarded-Proto`
 * counts only on connections from the proxies TRUST_PROXY names (server/trust-proxy), judged
 * by the library Fastify uses for the API's same setting, so both read a request alike.
 */
import type { IncomingMessage } from 'node:http';
import { compile } from '@fastify/proxy-addr';
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
