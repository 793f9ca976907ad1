/**
 * A last line of defence: values that look like personal data or a bearer link (gift and redeem
 * ids open the gift) never leave the browser.
 */
import { VOUCHER_CODE_SOURCE } from '../../api/contract-values';
import { isValidId } from '../../ids';

const EMAIL = /[^\s@]+@[^\s@]+/;
const VOUCHER = new RegExp(VOUCHER_CODE_SOURCE);
/** Prize (catalogue) ids are lower case, digits and dashes; a random id rarely is. */
const looksLikeId = (value: string) => isValidId(value) && /[A-Z_]/.test(value);

export function personalDataIn(value: string): string | undefined {
  if (EMAIL.test(value)) return 'an email address';
  if (VOUCHER.test(value)) return 'a voucher code';
  if (looksLikeId(value) || value.split('/').some(looksLikeId)) return 'a gift or redeem id';
  return undefined;
}
