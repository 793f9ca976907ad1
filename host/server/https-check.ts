/** Forwarded headers count only from the proxies TRUST_PROXY names, judged as the API judges them. */
import type { IncomingMessage } from 'node:http';
import proxyAddr, { compile } from '@fastify/proxy-addr';
import type { TrustProxy } from 'server/trust-proxy';

export function createHttpsCheck(trustProxy: TrustProxy): (req: IncomingMessage) => boolean {
  const trusted = trustProxy === false ? () => false : compile(trustProxy);
  return (req) => {
    const forwarded = req.headers['x-forwarded-proto'];
    const remoteAddress = req.socket.remoteAddress;
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

/** The nearest untrusted X-Forwarded-For address, as the API reads it. */
export function createClientAddress(trustProxy: TrustProxy): (req: IncomingMessage) => string | undefined {
  if (trustProxy === false) return (req) => req.socket.remoteAddress;
  const trusted = compile(trustProxy);
  return (req) => (req.socket.remoteAddress === undefined ? undefined : proxyAddr(req, trusted));
}
