/**
 * The icons the interface itself draws. Components take their names from here, and
 * `npm run icons -w shared` bundles exactly these plus the prize catalogue's icons.
 */
export const UI_ICONS = {
  /** Share a gift link through the system's share sheet. */
  share: 'mdi:share-variant',
  /** Copy a gift link where the system cannot share. */
  copyLink: 'mdi:link-variant',
} as const;
