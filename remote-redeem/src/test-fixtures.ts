/** API answers for tests: an open session of an available gift, unless a test says otherwise. */
import type { GiftView, RedeemView } from 'shared/api/contract';

export const REDEEM_ID = 'Rd_session-0123456789abc';
export const GIFT_ID = 'Gf_gift-00123456789abcde';

// Local times, so what the page writes does not depend on the machine's time zone.
export const SESSION_EXPIRES_AT = new Date(2030, 1, 1, 14, 32).toISOString();
export const GIFT_EXPIRES_AT = new Date(2030, 1, 14, 12, 0).toISOString();
export const REDEEMED_AT = new Date(2030, 1, 1, 14, 9).toISOString();
export const VOUCHER_VALID_UNTIL = new Date(2030, 4, 2, 14, 9).toISOString();
export const VOUCHER_CODE = '7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE';
export const VOUCHER_TERMS = {
  howToUse: 'Show the code or its QR code at the counter of any partner café before you pay.',
  conditions: 'One drink of any size. Not exchangeable for cash.',
  validDays: 90,
};

export function aGift(overrides: Partial<GiftView> = {}): GiftView {
  return {
    giftId: GIFT_ID,
    prize: {
      id: 'coffee-voucher',
      name: 'Coffee shop voucher',
      description: 'Any drink, any size, in any of our partner cafés.',
      value: { amount: 25, currency: 'EUR' },
      icon: 'mdi:coffee',
    },
    status: 'available',
    createdAt: new Date(2030, 0, 15, 9, 0).toISOString(),
    expiresAt: GIFT_EXPIRES_AT,
    redeemedAt: null,
    ...overrides,
  };
}

export function aRedeem(overrides: Partial<RedeemView> = {}): RedeemView {
  return {
    redeemId: REDEEM_ID,
    status: 'open',
    createdAt: new Date(2030, 1, 1, 14, 2).toISOString(),
    expiresAt: SESSION_EXPIRES_AT,
    gift: aGift(),
    completedAt: null,
    voucherCode: null,
    emailHint: null,
    voucherTerms: VOUCHER_TERMS,
    voucherValidUntil: null,
    ...overrides,
  };
}

export function aCompletedRedeem(overrides: Partial<RedeemView> = {}): RedeemView {
  return aRedeem({
    status: 'completed',
    completedAt: REDEEMED_AT,
    voucherCode: VOUCHER_CODE,
    emailHint: 'j•••@example.com',
    voucherValidUntil: VOUCHER_VALID_UNTIL,
    gift: aGift({ status: 'redeemed', redeemedAt: REDEEMED_AT }),
    ...overrides,
  });
}
