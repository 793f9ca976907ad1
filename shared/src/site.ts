/** The site's name, and the document title every part sets the same way. */
export const SITE_NAME = 'Gift Box';

export function documentTitle(title: string | undefined): string {
  return title && title !== SITE_NAME ? `${title} · ${SITE_NAME}` : SITE_NAME;
}
