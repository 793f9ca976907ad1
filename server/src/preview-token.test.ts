import { MAX_PREVIEW_TTL_S, signPreview, verifyPreview } from './preview-token';

const KEY = 'k'.repeat(40);
const OTHER_KEY = 'o'.repeat(40);
const NOW = 1_800_000_000;
const pin = { remote: 'gifts', buildId: 'build-2.1_a', expires: NOW + 600 };

describe('preview tokens', () => {
  it('pins the remote to the build when signed with that remote’s key and not expired', () => {
    expect(verifyPreview(signPreview(KEY, pin), { gifts: KEY }, NOW)).toEqual({ pin });
  });

  it('ignores an unsigned, forged, altered or expired token', () => {
    const token = signPreview(KEY, pin);
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /no token/],
      ['v1~gifts~build-2.1_a~1800000600', /not a v1/],
      [signPreview(OTHER_KEY, pin), /does not verify/],
      [token.replace('build-2.1_a', 'build-3'), /does not verify/],
      [token.replace(String(pin.expires), String(pin.expires + 1000)), /does not verify/],
      [signPreview(KEY, { ...pin, expires: NOW }), /expired/],
      [signPreview(KEY, { ...pin, expires: NOW + MAX_PREVIEW_TTL_S + 60 }), /longer/],
      [`${token}x`, /does not verify/],
    ];
    for (const [candidate, reason] of cases) {
      const result = verifyPreview(candidate, { gifts: KEY }, NOW);
      expect(result.pin).toBeUndefined();
      expect('reason' in result && result.reason).toMatch(reason);
    }
  });

  it("does not let one remote's key pin another remote", () => {
    const token = signPreview(KEY, { ...pin, remote: 'redeem' });
    expect(verifyPreview(token, { gifts: KEY, redeem: OTHER_KEY }, NOW).pin).toBeUndefined();
    expect(verifyPreview(token, { gifts: KEY }, NOW).pin).toBeUndefined();
  });

  it('refuses to sign with a short key or a build id that is not one', () => {
    expect(() => signPreview('short', pin)).toThrow(/at least 32/);
    expect(() => signPreview(KEY, { ...pin, buildId: '../x' })).toThrow(/not a build id/);
  });
});
