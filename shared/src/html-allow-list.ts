/**
 * What published HTML may hold, for every side that sanitises it: the content build (sanitize-html),
 * the content page (DOMPurify) and the host's server, which sanitises a remote's prerendered markup
 * again. Allow-lists rather than a library's defaults, so an upgrade cannot widen them.
 */

/** A content page's prose: no images, classes, styles, ids or targets (the look is the stylesheet's). */
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

/**
 * A prerendered page adds its frame and the game's boxes: buttons that do nothing until the app
 * takes over (no script, form or event handler gets through).
 */
export const PAGE_TAGS: readonly string[] = ['article', 'h1', 'time', 'span', 'div', 'section', 'button'];

export const PAGE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['class', 'id', 'aria-*', 'role', 'lang', 'dir', 'title', 'data-state'],
  a: ['href', 'name', 'target', 'rel'],
  button: ['type', 'disabled'],
  time: ['datetime'],
  img: ['src', 'alt', 'width', 'height'],
};

/**
 * A page rendered with its data adds its icons (inline SVG of paths only, sized, so nothing moves
 * when the app takes over), its fields and the states its parts are marked with.
 */
export const DATA_PAGE_TAGS: readonly string[] = ['svg', 'path', 'g', 'label', 'input'];

export const DATA_PAGE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['data-status', 'data-icon', 'style'],
  svg: ['viewbox', 'xmlns', 'width', 'height', 'focusable'],
  path: ['d', 'fill'],
  label: ['for'],
  input: ['type', 'name', 'value', 'checked', 'required', 'autocomplete', 'inputmode', 'autocapitalize', 'spellcheck'],
};
