/** @jest-environment node */
import { type Env, envSchema, parseEnv } from './env';
import { type TrustProxy, trustProxy } from './trust-proxy';

/** TRUST_PROXY as a server's schema reads it. */
function readTrustProxy(consequence: string, env: Env): TrustProxy {
  return parseEnv(envSchema({ TRUST_PROXY: trustProxy(consequence) }), env).TRUST_PROXY;
}

const CONSEQUENCE = 'X-Forwarded-Proto from any client';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    expect(readTrustProxy(CONSEQUENCE, {})).toBe(false);
    expect(readTrustProxy(CONSEQUENCE, { TRUST_PROXY: '' })).toBe(false);
    expect(readTrustProxy(CONSEQUENCE, { TRUST_PROXY: 'false' })).toBe(false);
  });

  it('names the proxies: addresses, CIDR ranges, netmasks and range names', () => {
    expect(
      readTrustProxy(CONSEQUENCE, { TRUST_PROXY: 'loopback, 10.0.0.0/8, 2001:db8::/32, 172.16.0.0/255.240.0.0' }),
    ).toEqual(['loopback', '10.0.0.0/8', '2001:db8::/32', '172.16.0.0/255.240.0.0']);
  });

  it.each(['true', '2'])('refuses %s, saying what any client could then do to this server', (value) => {
    expect(() => readTrustProxy(CONSEQUENCE, { TRUST_PROXY: value })).toThrow(
      `TRUST_PROXY=${value} would believe ${CONSEQUENCE}: name your proxies or load balancers instead`,
    );
  });

  it('names the entries it cannot read', () => {
    expect(() => readTrustProxy(CONSEQUENCE, { TRUST_PROXY: 'loopback, everyone, 10.0.0.0/33' })).toThrow(
      'not valid: "everyone", "10.0.0.0/33"',
    );
  });
});
