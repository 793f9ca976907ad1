import { MAX_PREVIEW_TTL_S, signPreview, verifyPreview } from './preview-token';

const KEY = 'k'.repeat(40);
const NEXT_KEY = 'n'.repeat(40);
const OTHER_KEY = 'o'.repeat(40);
const NOW = 1_800_000_000;
const HOST = 'https://giftbox.example';
const pin = { remote: 'gifts', buildId: 'build-2.1_a', expires: NOW + 600, audience: HOST };

describe('preview tokens', () => {
  it('pins the remote to the build when signed with that remote’s key, for this host, and not expired', () => {
    expect(verifyPreview(signPreview(KEY, pin), { gifts: [KEY] }, NOW, HOST)).toEqual({ pin });
  });

  it('takes a token signed with any of the remote’s keys, so a key is rotated without a gap', () => {
    expect(verifyPreview(signPreview(NEXT_KEY, pin), { gifts: [KEY, NEXT_KEY] }, NOW, HOST).pin).toEqual(pin);
    expect(verifyPreview(signPreview(KEY, pin), { gifts: [KEY, NEXT_KEY] }, NOW, HOST).pin).toEqual(pin);
    expect(verifyPreview(signPreview(KEY, pin), { gifts: [NEXT_KEY] }, NOW, HOST).pin).toBeUndefined();
  });

  it('ignores an unsigned, forged, altered, expired, long-lived or other host’s token', () => {
    const token = signPreview(KEY, pin);
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /no token/],
      ['v2~gifts~build-2.1_a~1800000600', /not a v2/],
      ['v1~gifts~build-2.1_a~1800000600~c2ln', /not a v2/],
      [signPreview(OTHER_KEY, pin), /does not verify/],
      [token.replace('build-2.1_a', 'build-3'), /does not verify/],
      [token.replace(String(pin.expires), String(pin.expires + 1000)), /does not verify/],
      [token.replace(HOST, 'https://staging.example'), /does not verify/],
      [signPreview(KEY, { ...pin, audience: 'https://staging.example' }), /another host/],
      [signPreview(KEY, { ...pin, audience: 'http://giftbox.example' }), /another host/],
      [signPreview(KEY, { ...pin, expires: NOW }), /expired/],
      [signPreview(KEY, { ...pin, expires: NOW + MAX_PREVIEW_TTL_S + 60 }), /longer/],
      [`${token}x`, /does not verify/],
    ];
    for (const [candidate, reason] of cases) {
      const result = verifyPreview(candidate, { gifts: [KEY] }, NOW, HOST);
      expect(result.pin).toBeUndefined();
      expect('reason' in result && result.reason).toMatch(reason);
    }
  });

  it('names the host by its scheme and hostname: a proxy in front may change the port', () => {
    const token = signPreview(KEY, { ...pin, audience: 'https://giftbox.example:8443' });
    expect(verifyPreview(token, { gifts: [KEY] }, NOW, HOST).pin).toBeDefined();
    expect(verifyPreview(token, { gifts: [KEY] }, NOW, 'https://www.giftbox.example').pin).toBeUndefined();
  });

  it('lives at most an hour', () => {
    expect(MAX_PREVIEW_TTL_S).toBe(3600);
    const token = signPreview(KEY, { ...pin, expires: NOW + 3600 });
    expect(verifyPreview(token, { gifts: [KEY] }, NOW, HOST).pin).toBeDefined();
  });

  it("does not let one remote's key pin another remote", () => {
    const token = signPreview(KEY, { ...pin, remote: 'redeem' });
    expect(verifyPreview(token, { gifts: [KEY], redeem: [OTHER_KEY] }, NOW, HOST).pin).toBeUndefined();
    expect(verifyPreview(token, { gifts: [KEY] }, NOW, HOST).pin).toBeUndefined();
  });

  it('refuses to sign with a short key, a build id that is not one or an audience that is not an origin', () => {
    expect(() => signPreview('short', pin)).toThrow(/at least 32/);
    expect(() => signPreview(KEY, { ...pin, buildId: '../x' })).toThrow(/not a build id/);
    expect(() => signPreview(KEY, { ...pin, audience: 'https://giftbox.example/path' })).toThrow(/not an origin/);
    expect(() => signPreview(KEY, { ...pin, audience: 'giftbox.example' })).toThrow(/not an origin/);
  });
});
