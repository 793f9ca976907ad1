/**
 * Behind a proxy without TRUST_PROXY every visitor shares the proxy's address and one limit
 * bucket. Only requests can tell: the first X-Forwarded-For from a private address warns once.
 */
import { BlockList, isIPv4 } from 'node:net';
import { type App } from '../app-context';

export const PROXY_WARNING =
  'requests come through a proxy (X-Forwarded-For from a private address) but TRUST_PROXY is unset: every client counts as the proxy’s address, in one bucket of every per-address limit; set TRUST_PROXY to the proxy’s address (docs/configuration.md)';

/** Where a proxy in front of the API sits: this machine or a private network. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  try {
    return PRIVATE.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
}

export function installProxyWarning(app: App, trustProxy: false | readonly string[]): void {
  if (trustProxy !== false) return;
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    if (warned) return done();
    const forwarded = request.headers['x-forwarded-for'] ?? request.headers.forwarded;
    const peer = request.socket.remoteAddress;
    if (forwarded !== undefined && peer !== undefined && isPrivateAddress(peer)) {
      warned = true;
      request.log.warn({ setting: 'TRUST_PROXY' }, PROXY_WARNING);
    }
    done();
  });
}
