/** What a gift's status is called wherever the gifts remote shows it (its page, the visitor's list). */
import type { GiftStatus } from 'shared/api/contract';

export const GIFT_STATUS_LABELS: Record<GiftStatus, string> = {
  available: 'Ready to redeem',
  redeemed: 'Redeemed',
  expired: 'Expired',
};
