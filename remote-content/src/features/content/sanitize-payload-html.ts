/**
 * A content payload's HTML as the page puts it into the DOM: through DOMPurify with the payload
 * allow-list (shared/html-allow-list), whatever the payload file holds. The build sanitised it
 * already, but the file is fetched at run time from wherever the remote is served, so the page
 * does not trust it: a script, an event handler, a frame or a `javascript:` link never reaches
 * the document. DOMPurify is in this remote's page chunk, never in the host's first scripts.
 *
 * Where there is no DOM (the build's prerender, in Node), the HTML is the payload the same build
 * has just sanitised with this allow-list, and the host's server sanitises the prerendered
 * markup again where it puts it into the page (docs/decisions/0015-host-server-starts-the-page.md).
 */
import DOMPurify, { type Config } from 'dompurify';
import { PAYLOAD_ATTRIBUTES, PAYLOAD_TAGS, PAYLOAD_URL_SCHEMES } from 'shared/html-allow-list';

/**
 * A link DOMPurify keeps: one of the allowed schemes, or a path of this site (`/about`,
 * `#contact`, `?x`, `terms`), never protocol-relative (`//elsewhere`, `/\elsewhere`).
 * DOMPurify strips white space and control characters before it compares.
 */
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

/** The payload's HTML, only what the allow-list keeps of it. */
export function sanitizePayloadHtml(html: string): string {
  const sanitiser = purify();
  if (!sanitiser) return html;
  // A browser DOMPurify cannot work in is refused the text rather than given it unchecked.
  if (!sanitiser.isSupported) return '';
  return sanitiser.sanitize(html, CONFIG);
}
