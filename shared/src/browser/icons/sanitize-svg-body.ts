/**
 * An icon's drawing from the icon service, through DOMPurify's SVG profile. Iconify's renderer
 * puts the body into the page as markup (the redeem page shows voucher codes), so what is
 * inserted is the sanitiser's output, never the service's text. On top of the profile, a
 * drawing keeps no link, image, style sheet or reference outside itself (`#id` and `url(#id)`
 * only), so it can neither run nor load anything. Bundled icons are ours and are not passed here.
 */
import DOMPurify, { type Config } from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';
const INSIDE_REFERENCE = /^\s*#/;
const OUTSIDE_URL = /url\(\s*(?!['"]?#)/i;

// `use` is added to the profile, its reference held inside the drawing by the hook below.
// Animation elements stay out, as DOMPurify has them: one could rewrite a reference after
// sanitising. An animated icon is drawn still.
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

/** The drawing as the sanitiser leaves it; undefined without a DOM, or when nothing is left to draw. */
export function sanitizeSvgBody(body: string): string | undefined {
  const sanitiser = purify();
  if (!sanitiser) return undefined;
  const fragment = sanitiser.sanitize(`<svg xmlns="${SVG_NS}">${body}</svg>`, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  const svg = fragment.firstElementChild;
  if (svg?.localName !== 'svg' || svg.children.length === 0) return undefined;
  return svg.innerHTML;
}
