/**
 * Query keys of the API's resources. Shared, like the cache: a remote may update what another
 * remote's page shows (a redeemed gift, once the redeem remote has completed it).
 */
export const apiQueryKeys = {
  gift: (giftId: string) => ['api', 'gifts', giftId] as const,
  redeem: (redeemId: string) => ['api', 'redeems', redeemId] as const,
  visitorGifts: () => ['api', 'visitor', 'gifts'] as const,
};
