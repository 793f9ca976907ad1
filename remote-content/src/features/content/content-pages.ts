/** Authored pages: one list for the build and the exposed pages, so none lacks its payload. */
export const CONTENT_PAGES = ['home', 'about', 'privacy-policy', 'terms'] as const;

export type ContentPageName = (typeof CONTENT_PAGES)[number];
