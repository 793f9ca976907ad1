/** What the API answers in the tests of every part: a gift as its page shows it. */
import type { GiftView } from '../api/contract';

export const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';
export const REDEEM_ID = 'Rd3_-eEmMeNoWpLeAsE12345';

/** A cinema ticket won today, ready to redeem. */
export function aGiftView(overrides: Partial<GiftView> = {}): GiftView {
  return {
    giftId: GIFT_ID,
    prize: {
      id: 'cinema',
      name: 'Cinema ticket',
      description: 'One seat at any screening, any day of the week.',
      value: { amount: 12.5, currency: 'EUR' },
      icon: 'mdi:movie-open',
    },
    status: 'available',
    createdAt: '2026-11-22T12:00:00.000Z',
    expiresAt: '2026-12-22T12:00:00.000Z',
    redeemedAt: null,
    ...overrides,
  };
}
