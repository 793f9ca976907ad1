/**
 * What the host's server writes into the page and the browser reads back: the runtime
 * configuration inline, and a prerendered page's data.
 */

export const RUNTIME_CONFIG_ELEMENT_ID = 'gift-box-config';

export const PRERENDER_STATE_ELEMENT_ID = 'gift-box-prerender-state';

/** The app keeps the prerendered page on screen until its own first render is ready. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** `<` and U+2028/U+2029 escaped: no value can end the `<script>` early. */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
