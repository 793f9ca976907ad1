/** A remote's prerendered markup sanitised with the published-HTML allow-list, whatever its files hold. */
import sanitizeHtml from 'sanitize-html';
import {
  DATA_PAGE_ATTRIBUTES,
  DATA_PAGE_TAGS,
  PAGE_ATTRIBUTES,
  PAGE_TAGS,
  PAYLOAD_ATTRIBUTES,
  PAYLOAD_TAGS,
  PAYLOAD_URL_SCHEMES,
} from 'shared/html-allow-list';

type Attributes = Readonly<Record<string, readonly string[]>>;

function mergeAttributes(...lists: Attributes[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const list of lists) {
    for (const [tag, names] of Object.entries(list)) merged[tag] = [...new Set([...(merged[tag] ?? []), ...names])];
  }
  return merged;
}

const PAGE: sanitizeHtml.IOptions = {
  allowedTags: [...new Set([...sanitizeHtml.defaults.allowedTags, ...PAYLOAD_TAGS, ...PAGE_TAGS])],
  allowedAttributes: mergeAttributes(PAYLOAD_ATTRIBUTES, PAGE_ATTRIBUTES),
  allowedSchemes: [...PAYLOAD_URL_SCHEMES],
  allowProtocolRelative: false,
};

/** The icons' sizes: `2.25rem`, `24px`, `24`. */
const LENGTH = /^\d+(?:\.\d+)?(?:rem|em|px)?$/;

const DATA_PAGE: sanitizeHtml.IOptions = {
  ...PAGE,
  allowedTags: [...(PAGE.allowedTags as string[]), ...DATA_PAGE_TAGS],
  allowedAttributes: mergeAttributes(PAYLOAD_ATTRIBUTES, PAGE_ATTRIBUTES, DATA_PAGE_ATTRIBUTES),
  // A form sent before the app takes it over would put its fields in the address.
  transformTags: { form: (_tagName, attribs) => ({ tagName: 'div', attribs }) },
  allowedStyles: {
    '*': { display: [/^inline-block$/], 'flex-shrink': [/^0$/], width: [LENGTH], height: [LENGTH] },
  },
};

export function sanitizePrerenderedHtml(html: string): string {
  return sanitizeHtml(html, PAGE).trim();
}

export function sanitizeDataPageHtml(html: string): string {
  return sanitizeHtml(html, DATA_PAGE).trim();
}
