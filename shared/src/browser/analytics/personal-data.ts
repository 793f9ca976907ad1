/**
 * A last line of defence behind the event types: values that look like personal data or like a
 * bearer link are refused before they can leave the browser. Gift and redeem ids are
 * capabilities (whoever has the link can open the gift), so they count as personal here.
 */
import { VOUCHER_CODE_SOURCE } from '../../api/contract-values';
import { isValidId } from '../../ids';

const EMAIL = /[^\s@]+@[^\s@]+/;
/** A voucher code anywhere in the value. */
const VOUCHER = new RegExp(VOUCHER_CODE_SOURCE);
/**
 * A 24-character id has an upper-case letter or an underscore except about once in 500,000
 * draws; prize (catalogue) ids are lower case, digits and dashes, so they pass.
 */
const looksLikeId = (value: string) => isValidId(value) && /[A-Z_]/.test(value);

/** Why `value` must not be sent, or undefined when it may be. */
export function personalDataIn(value: string): string | undefined {
  if (EMAIL.test(value)) return 'an email address';
  if (VOUCHER.test(value)) return 'a voucher code';
  if (looksLikeId(value) || value.split('/').some(looksLikeId)) return 'a gift or redeem id';
  return undefined;
}
