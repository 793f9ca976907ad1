/**
 * The pages whose text is authored in `content/{page}.md` and published at build time as
 * `payload/{page}.json`. The build and the exposed pages both read this list, so a page
 * cannot be exposed without its payload being built.
 */
export const CONTENT_PAGES = ['home', 'about', 'privacy-policy', 'terms'] as const;

export type ContentPageName = (typeof CONTENT_PAGES)[number];
