/** @jest-environment node */
import { ID_BYTES, ID_LENGTH, isValidId } from './ids';

const VALID = 'AbCdEfGhIjKlMnOp0123_-xy';

describe('isValidId', () => {
  it('describes 18 random bytes as 24 base64url characters', () => {
    expect(ID_LENGTH).toBe(24);
    expect(Buffer.alloc(ID_BYTES, 0xff).toString('base64url')).toHaveLength(ID_LENGTH);
  });

  it.each([
    ['mixed letters, digits, "_" and "-"', VALID],
    ['all one letter', 'A'.repeat(24)],
    ['all digits', '0'.repeat(24)],
    ['all "-"', '-'.repeat(24)],
    ['all "_"', '_'.repeat(24)],
  ])('accepts %s', (_label, value) => {
    expect(value).toHaveLength(24);
    expect(isValidId(value)).toBe(true);
  });

  it('accepts the base64url encoding of any 18 bytes', () => {
    for (let i = 0; i < 50; i += 1) {
      const bytes = Buffer.from(Array.from({ length: ID_BYTES }, (_, j) => (i * 37 + j * 101) % 256));
      expect(isValidId(bytes.toString('base64url'))).toBe(true);
    }
  });

  it.each([
    ['23 characters', 'A'.repeat(23)],
    ['25 characters', 'A'.repeat(25)],
    ['an empty string', ''],
    ['a "+"', `${'A'.repeat(23)}+`],
    ['a "/"', `${'A'.repeat(23)}/`],
    ['a "=" padding', `${'A'.repeat(22)}==`],
    ['a space', `${'A'.repeat(11)} ${'A'.repeat(12)}`],
    ['a trailing newline', `${'A'.repeat(24)}\n`],
    ['a trailing newline in place of the last character', `${'A'.repeat(23)}\n`],
    ['a leading newline', `\n${'A'.repeat(24)}`],
    ['a non-ASCII letter', `${'A'.repeat(23)}é`],
    ['a percent-encoded character', `${'A'.repeat(21)}%41`],
  ])('rejects %s', (_label, value) => {
    expect(isValidId(value)).toBe(false);
  });

  it.each([[undefined], [null], [424242], [['A'.repeat(24)]], [{ toString: () => 'A'.repeat(24) }]])(
    'rejects the non-string %p',
    (value) => {
      expect(isValidId(value)).toBe(false);
    },
  );
});
