/**
 * An icon service's drawing through DOMPurify's SVG profile, since Iconify inserts it as markup: it
 * keeps no link, image, style sheet or outside reference, so it can neither run nor load anything.
 */
import DOMPurify, { type Config } from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';
const INSIDE_REFERENCE = /^\s*#/;
const OUTSIDE_URL = /url\(\s*(?!['"]?#)/i;

// `use` is added, its reference held inside the drawing by the hook below. Animation elements
// stay out: one could rewrite a reference after sanitising.
const CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  ADD_TAGS: ['use'],
  FORBID_TAGS: ['a', 'image', 'style', 'foreignObject', 'script'],
};

let purifier: ReturnType<typeof DOMPurify> | undefined;

function purify(): ReturnType<typeof DOMPurify> | undefined {
  if (typeof window === 'undefined') return undefined;
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      const reference = name === 'href' || name === 'xlink:href';
      if ((reference && !INSIDE_REFERENCE.test(data.attrValue)) || OUTSIDE_URL.test(data.attrValue)) {
        data.keepAttr = false;
      }
    });
  }
  return purifier.isSupported ? purifier : undefined;
}

export function sanitizeSvgBody(body: string): string | undefined {
  const sanitiser = purify();
  if (!sanitiser) return undefined;
  const fragment = sanitiser.sanitize(`<svg xmlns="${SVG_NS}">${body}</svg>`, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  const svg = fragment.firstElementChild;
  if (svg?.localName !== 'svg' || svg.children.length === 0) return undefined;
  return svg.innerHTML;
}
