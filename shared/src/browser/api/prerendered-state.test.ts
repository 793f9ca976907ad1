import { hashKey, type DehydratedState } from '@tanstack/react-query';
import { jsonForScriptElement, PRERENDER_STATE_ELEMENT_ID } from 'shared/page-data';
import { forgetPrerenderedData, prerenderedData } from './prerendered-state';

const KEY = ['content', 'payload', 'about'] as const;
const HOSTILE = '</script><script>window.__ran = true</script><!-- <script>window.__ran = true</script>';

function stateWith(data: unknown): DehydratedState {
  return {
    mutations: [],
    queries: [{ queryKey: [...KEY], queryHash: hashKey(KEY), state: { data, status: 'success' } }],
  } as unknown as DehydratedState;
}

/** A page as the host's server writes it, parsed as the browser parses it. */
function pageWith(body: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><body>${body}</body></html>`, 'text/html');
}

function stateElement(state: unknown, tag = '<script type="application/json"'): string {
  return `${tag} id="${PRERENDER_STATE_ELEMENT_ID}" data-build="b1">${jsonForScriptElement(state)}</script>`;
}

let warn: jest.SpyInstance;
beforeEach(() => {
  forgetPrerenderedData();
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

describe('the prerendered page data', () => {
  it('holding </script> or <!--, stays one data block, written and read back as the same value', () => {
    const data = { title: 'About', html: `<p>${HOSTILE}</p>` };
    const doc = pageWith(`${stateElement(stateWith(data))}<p id="after">after</p>`);

    // Nothing ended the element early: one script element, and what follows it is still the page.
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.getElementById('after')?.textContent).toBe('after');
    expect(prerenderedData(KEY, 'b1', doc)).toEqual(data);
    expect(warn).not.toHaveBeenCalled();
  });

  it('is used only by the build that rendered it', () => {
    const doc = pageWith(stateElement(stateWith({ title: 'About', html: '' })));
    expect(prerenderedData(KEY, 'b2', doc)).toBeUndefined();
  });

  it.each([
    [
      'not JSON',
      `<script type="application/json" id="${PRERENDER_STATE_ELEMENT_ID}" data-build="b1">{"queries": [</script>`,
    ],
    ['not a query cache', stateElement({ queries: 'everything' })],
    ['queries without their hash', stateElement({ queries: [{ state: { data: 1 } }] })],
    [
      'an element that is no JSON data block',
      stateElement(stateWith({ title: 'About', html: '' }), '<script type="text/javascript"'),
    ],
    [
      'another element',
      `<div id="${PRERENDER_STATE_ELEMENT_ID}" data-build="b1">${jsonForScriptElement(stateWith(1))}</div>`,
    ],
  ])('%s: is not used, and the page loads its data instead', (_case, body) => {
    expect(prerenderedData(KEY, 'b1', pageWith(body))).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      '[prerender] the page data cannot be read; the page loads it instead',
      expect.anything(),
    );
  });
});
