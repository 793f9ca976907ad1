/**
 * Whether an icon body from the icon service is plain drawing. Iconify's renderer puts the body
 * into the page as markup, so a body with a script, an event handler, a link out or foreign
 * content would run in the page (the redeem page shows voucher codes). Only the icon service's
 * answers (and the cache holding them) are checked; bundled icons are ours.
 */
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The elements icon sets draw with: shapes, grouping, paint servers, clipping, masks, animation. */
const ALLOWED_ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'rect',
  'defs',
  'symbol',
  'use',
  'clipPath',
  'mask',
  'pattern',
  'linearGradient',
  'radialGradient',
  'stop',
  'title',
  'desc',
  'animate',
  'animateTransform',
  'animateMotion',
  'mpath',
  'set',
]);

/** A reference must stay inside the icon: `#id` or `url(#id)`. */
const OUTSIDE_URL = /url\(\s*(?!['"]?#)/i;
const SCRIPT_URL = /^\s*(?:javascript|data|vbscript):/i;

function safeAttribute(name: string, value: string): boolean {
  const local = name.toLowerCase().replace(/^xlink:/, '');
  if (local.startsWith('on')) return false;
  if (local === 'href' || local === 'src') return value.trim().startsWith('#');
  return !OUTSIDE_URL.test(value) && !SCRIPT_URL.test(value);
}

export function isSafeSvgBody(body: string): boolean {
  // Without a parser there is no telling: nothing from the service is shown.
  if (typeof DOMParser === 'undefined') return false;
  const markup = `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</svg>`;
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.localName !== 'svg' || parsed.getElementsByTagName('parsererror').length > 0) return false;
  for (const element of [root, ...Array.from(root.getElementsByTagName('*'))]) {
    if (element.namespaceURI !== SVG_NS || !ALLOWED_ELEMENTS.has(element.localName)) return false;
    for (const attribute of Array.from(element.attributes)) {
      if (!safeAttribute(attribute.name, attribute.value)) return false;
    }
  }
  return true;
}
