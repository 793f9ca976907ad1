/**
 * A payload's HTML through DOMPurify with the payload allow-list, whatever the file holds: it is
 * fetched at run time from wherever the remote is served, so the page does not trust the build's
 * sanitising. Without a DOM (the prerender) the host's server sanitises the markup again.
 */
import DOMPurify, { type Config } from 'dompurify';
import { PAYLOAD_ATTRIBUTES, PAYLOAD_TAGS, PAYLOAD_URL_SCHEMES } from 'shared/html-allow-list';

/** One of the allowed schemes or a path of this site, never protocol-relative (`//elsewhere`). */
const ALLOWED_URL = new RegExp(
  `^(?:(?:${PAYLOAD_URL_SCHEMES.join('|')}):|/(?![/\\\\])|[?#]|[^:/?#\\\\]+(?:[/?#]|$))`,
  'i',
);

const CONFIG: Config = {
  ALLOWED_TAGS: [...PAYLOAD_TAGS],
  ALLOWED_ATTR: [...new Set(Object.values(PAYLOAD_ATTRIBUTES).flat())],
  ALLOWED_URI_REGEXP: ALLOWED_URL,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

let purifier: ReturnType<typeof DOMPurify> | undefined;

function purify(): ReturnType<typeof DOMPurify> | undefined {
  if (typeof window === 'undefined') return undefined;
  if (!purifier) {
    purifier = DOMPurify(window);
    // The allow-list is per tag: a `title` belongs on a link or an abbreviation, not on a cell.
    purifier.addHook('uponSanitizeAttribute', (node, data) => {
      const allowed = PAYLOAD_ATTRIBUTES[node.nodeName.toLowerCase()] ?? [];
      if (!allowed.includes(data.attrName.toLowerCase())) data.keepAttr = false;
    });
  }
  return purifier;
}

export function sanitizePayloadHtml(html: string): string {
  const sanitiser = purify();
  if (!sanitiser) return html;
  // A browser DOMPurify cannot work in is refused the text rather than given it unchecked.
  if (!sanitiser.isSupported) return '';
  return sanitiser.sanitize(html, CONFIG);
}
