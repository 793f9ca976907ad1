import { isValidId } from 'shared/ids';
import { newId, newVoucherCode, VOUCHER_PATTERN } from './codes';

describe('newId', () => {
  it('makes ids in the format shared validates, all different', () => {
    const ids = Array.from({ length: 1000 }, newId);
    expect(ids.every(isValidId)).toBe(true);
    expect(new Set(ids).size).toBe(1000);
  });
});

describe('newVoucherCode', () => {
  it('makes XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX codes of Crockford base32 (140 bits), all different', () => {
    const codes = Array.from({ length: 1000 }, newVoucherCode);
    for (const code of codes) expect(code).toMatch(VOUCHER_PATTERN);
    expect(codes[0]?.replace(/-/g, '')).toHaveLength(28);
    expect(codes.join('')).not.toMatch(/[ILOU]/);
    expect(new Set(codes).size).toBe(1000);
  });

  it('uses every symbol of the alphabet (no bias towards a few)', () => {
    const symbols = new Set(Array.from({ length: 200 }, newVoucherCode).join('').replace(/-/g, ''));
    expect(symbols.size).toBe(32);
  });
});
