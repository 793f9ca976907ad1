/** The session showing this browser's voucher for a redeemed gift, from the visitor's gifts. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from 'shared/browser/api/api-context';
import { visitorGiftsQueryOptions } from 'shared/browser/api/visitor-gifts-query';

export function useVoucherSession(giftId: string, redeemed: boolean): string | undefined {
  const { data: gifts } = useQuery({ ...visitorGiftsQueryOptions(useApi()), enabled: redeemed });
  return gifts?.find((gift) => gift.giftId === giftId)?.redeemId ?? undefined;
}
