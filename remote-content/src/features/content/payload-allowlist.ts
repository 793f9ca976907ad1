/**
 * What a content page's HTML may hold: one allow-list for the build, which sanitises each page's
 * Markdown into its payload (build/markdown-to-payload.ts, sanitize-html), and for the page,
 * which sanitises the payload again where it enters the DOM (sanitize-payload-html.ts,
 * DOMPurify). An allow-list rather than a library's defaults, so an upgrade cannot widen it. No
 * images, classes, styles, ids or targets: the text is prose, and the page's look belongs to the
 * stylesheet.
 */

export const PAYLOAD_TAGS: readonly string[] = [
  'h2',
  'h3',
  'h4',
  'p',
  'br',
  'hr',
  'blockquote',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'abbr',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

/** The attributes each tag may keep; every other attribute (an event handler, a style…) goes. */
export const PAYLOAD_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  abbr: ['title'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

/** A link's schemes; a link without one is a path of this site. Protocol-relative URLs could point anywhere. */
export const PAYLOAD_URL_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
