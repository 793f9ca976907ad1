import { spellingsOf } from './page-spellings';

describe('spellingsOf', () => {
  it('gives as many distinct spellings as asked, never the path itself', () => {
    const spellings = spellingsOf('/privacy-policy', 200);
    expect(spellings).toHaveLength(200);
    expect(new Set(spellings).size).toBe(200);
    expect(spellings).not.toContain('/privacy-policy');
  });

  it('spells the path with other letter cases, a percent-encoded first letter and extra slashes only', () => {
    for (const spelling of spellingsOf('/privacy-policy', 200)) {
      const decoded = decodeURIComponent(spelling).replace(/\/+$/, '');
      expect([spelling, decoded.toLowerCase()]).toEqual([spelling, '/privacy-policy']);
    }
  });
});
