/** What the page knows about a session once this tab has completed it. */
import type { CompleteRedeemResult, RedeemView } from 'shared/api/contract';
import { maskEmail } from 'shared/api/email';

/** The session as the API would now answer it, without asking it again. */
export function completedView(redeem: RedeemView, result: CompleteRedeemResult, email: string): RedeemView {
  return {
    ...redeem,
    status: 'completed',
    completedAt: result.redeemedAt,
    voucherCode: result.voucherCode,
    voucherValidUntil: result.voucherValidUntil,
    emailHint: maskEmail(email),
    gift: { ...redeem.gift, status: 'redeemed', redeemedAt: result.redeemedAt },
  };
}
