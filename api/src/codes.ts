/** Unguessable identifiers: ids in shared's format, and voucher codes a person can type. */
import { randomBytes } from 'node:crypto';
import { ID_BYTES } from 'shared/ids';

/** 18 random bytes as 24 URL-safe base64 characters (144 bits), the format `shared` validates. */
export function newId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

// Crockford's base32: no I, L, O or U, so nothing is misread or spells a word by accident.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const VOUCHER_BYTES = 10; // 80 bits = 16 characters of 5 bits

export const VOUCHER_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;

/** 80 random bits as XXXX-XXXX-XXXX-XXXX. */
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
