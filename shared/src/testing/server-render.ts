/**
 * For a remote's tests of its pages rendered on the host's server (`build/render-pages.tsx`):
 * compare that markup with the browser's first render of the same page, given the page data the
 * host's server writes beside it.
 */
import { forgetPrerenderedData } from '../browser/api/prerendered-state';
import { queryClient } from '../browser/api/query-client';
import { PRERENDER_STATE_ELEMENT_ID, jsonForScriptElement } from '../page-data';

/**
 * Markup as the browser's DOM holds it, so a server's render and a browser's compare equal when
 * they show the same page: attribute names as HTML reads them (case-insensitive), styles as the
 * DOM writes them (React sets an element's style through it in the browser), attributes in one
 * order (React's browser build sets a field's in an order of its own), and the ids React makes
 * for fields named alike (a server's and a browser's differ in their form).
 */
export function markupAsDom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll<HTMLElement | SVGElement>('*')) {
    const { cssText } = element.style;
    if (cssText) element.style.cssText = cssText;
    const attributes = [...element.attributes].map(({ name, value }) => [name, value] as const);
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) element.setAttribute(name, value);
  }
  return template.innerHTML.replace(/_[rR]_[0-9a-z]+_/g, '_id_');
}

/** Writes the page data beside the markup, as the host's server does. */
export function putPageState(state: unknown): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PRERENDER_STATE_ELEMENT_ID;
  element.dataset.build = 'any';
  element.textContent = jsonForScriptElement(state);
  document.body.append(element);
}

/** Removes the page data and all the app read from it: each test starts from a page without it. */
export function clearPageState(): void {
  document.getElementById(PRERENDER_STATE_ELEMENT_ID)?.remove();
  forgetPrerenderedData();
  queryClient.clear();
}
