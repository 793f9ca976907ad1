/** What published HTML may hold, for every side that sanitises it: never a library's defaults. */

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

export const PAYLOAD_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  abbr: ['title'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

/** Protocol-relative URLs could point anywhere. */
export const PAYLOAD_URL_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];

/** A prerendered page's frame and the game's boxes. */
export const PAGE_TAGS: readonly string[] = ['article', 'h1', 'time', 'span', 'div', 'section', 'button'];

export const PAGE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['class', 'id', 'aria-*', 'role', 'lang', 'dir', 'title', 'data-state'],
  a: ['href', 'name', 'target', 'rel'],
  button: ['type', 'disabled'],
  time: ['datetime'],
  img: ['src', 'alt', 'width', 'height'],
};

/** A data page's icons (SVG paths only), fields and states. */
export const DATA_PAGE_TAGS: readonly string[] = ['svg', 'path', 'g', 'label', 'input'];

export const DATA_PAGE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['data-status', 'data-icon', 'style'],
  svg: ['viewbox', 'xmlns', 'width', 'height', 'focusable'],
  path: ['d', 'fill'],
  label: ['for'],
  input: ['type', 'name', 'value', 'checked', 'required', 'autocomplete', 'inputmode', 'autocapitalize', 'spellcheck'],
};
