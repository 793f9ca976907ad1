import { randomBytes } from 'node:crypto';
import { VOUCHER_CODE_PATTERN } from 'shared/api/contract';
import { ID_BYTES } from 'shared/ids';

export function newId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

// Crockford's base32: nothing misread, no words spelt.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// 140 bits used: seven groups of four to type.
const VOUCHER_BYTES = 18;

export const VOUCHER_PATTERN = VOUCHER_CODE_PATTERN;

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
  return code.match(/.{4}/g)!.join('-');
}
