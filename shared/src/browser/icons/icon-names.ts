/** The interface's own icons: `npm run icons -w shared` bundles these and the catalogue's. */
export const UI_ICONS = {
  share: 'mdi:share-variant',
  copyLink: 'mdi:link-variant',
} as const;
