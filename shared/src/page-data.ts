/**
 * What the host's server writes into the HTML page it sends, and the browser reads back: the
 * runtime configuration inline (no `/config.json` round trip on a first load) and, for a
 * prerendered page, the data its remote rendered the markup from. Universal: the server writes,
 * the browser reads.
 */

/** `<script type="application/json" id="…">` holding the runtime configuration. */
export const RUNTIME_CONFIG_ELEMENT_ID = 'gift-box-config';

/** `<script type="application/json" id="…">` holding a prerendered page's query cache (TanStack's dehydrated state). */
export const PRERENDER_STATE_ELEMENT_ID = 'gift-box-prerender-state';

/** Marks the prerendered page in `#root`: the app keeps it on screen until its own first render is ready. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * JSON safe inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--` in a value
 * can end the element early, and U+2028/U+2029 are escaped for old parsers.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
