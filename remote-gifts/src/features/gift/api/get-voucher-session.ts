/**
 * The redeem session where this browser's voucher for a redeemed gift is shown: the browser that
 * redeemed a gift can always see its voucher again from the gift's page. Found in the visitor's
 * gifts (shared/browser/api/visitor-gifts-query), asked only once the gift is redeemed.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from 'shared/browser/api/api-context';
import { visitorGiftsQueryOptions } from 'shared/browser/api/visitor-gifts-query';

export function useVoucherSession(giftId: string, redeemed: boolean): string | undefined {
  const { data: gifts } = useQuery({ ...visitorGiftsQueryOptions(useApi()), enabled: redeemed });
  return gifts?.find((gift) => gift.giftId === giftId)?.redeemId ?? undefined;
}
