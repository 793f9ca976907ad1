/** Unguessable identifiers: ids in shared's format, and voucher codes a person can type. */
import { randomBytes } from 'node:crypto';
import { VOUCHER_CODE_PATTERN } from 'shared/api/contract';
import { ID_BYTES } from 'shared/ids';

/** 18 random bytes as 24 URL-safe base64 characters (144 bits), the format `shared` validates. */
export function newId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

// Crockford's base32: no I, L, O or U, so nothing is misread or spells a word by accident.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// 18 bytes = 144 bits, of which the first 140 make 28 characters of 5 bits: at least 128 random
// bits, like the ids, and still only seven groups of four to read out or type.
const VOUCHER_BYTES = 18;

/** The format every side agrees on (shared's contract). */
export const VOUCHER_PATTERN = VOUCHER_CODE_PATTERN;

/** 140 random bits as XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX. */
export function newVoucherCode(): string {
  let bits = 0;
  let buffered = 0;
  let code = '';
  for (const byte of randomBytes(VOUCHER_BYTES)) {
    bits = (bits << 8) | byte;
    buffered += 8;
    while (buffered >= 5) {
      buffered -= 5;
      code += CROCKFORD[(bits >>> buffered) & 31];
    }
    bits &= (1 << buffered) - 1;
  }
  // 144 bits give 28 characters and 4 bits left over, unused.
  return code.match(/.{4}/g)!.join('-');
}
