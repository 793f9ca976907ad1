import { forgetPrerenderedData } from 'shared/browser/api/prerendered-state';
import { queryClient } from 'shared/browser/api/query-client';
import { PRERENDER_STATE_ELEMENT_ID, jsonForScriptElement } from 'shared/page-data';
import GiftPage from '../src/exposed/gift-page';
import { GIFT_ID, giftView, renderWithApi, stubFetch } from '../src/test-utils';
import { render } from './render-pages';

/**
 * Markup as the browser's DOM holds it (attribute names are case-insensitive in HTML), styles as
 * the DOM writes them (React sets an element's style through it in the browser).
 */
function asDom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll<HTMLElement | SVGElement>('[style]')) {
    const { cssText } = element.style;
    element.style.cssText = cssText;
  }
  return template.innerHTML;
}

/** The page data the host's server writes beside the markup. */
function putPageState(state: unknown): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PRERENDER_STATE_ELEMENT_ID;
  element.dataset.build = 'any';
  element.textContent = jsonForScriptElement(state);
  document.body.append(element);
}

afterEach(() => {
  document.getElementById(PRERENDER_STATE_ELEMENT_ID)?.remove();
  forgetPrerenderedData();
  queryClient.clear();
});

describe('the gift page rendered on the server with its data', () => {
  const path = `/gifts/${GIFT_ID}`;
  const gift = giftView();
  const page = render({
    module: 'GiftPage',
    pathname: path,
    queries: [{ queryKey: ['api', 'gifts', GIFT_ID], data: gift }],
  });

  it('holds the name, the value, the status and the Redeem button', () => {
    expect(page.html).toContain('>Cinema ticket</span>');
    expect(page.html).toContain('>€12.50</p>');
    expect(page.html).toContain('>Ready to redeem</p>');
    expect(page.html).toContain('>Redeem</button>');
  });

  it("is the browser's first render of the page with that data, which asks the API for nothing", () => {
    putPageState(page.state);
    const fetchStub = stubFetch();
    const { container } = renderWithApi(path, { '/gifts/:giftId': <GiftPage /> }, fetchStub);
    expect(asDom(container.innerHTML)).toBe(asDom(page.html));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("is also a phone's first render, whose browser has a share sheet the server has not", () => {
    Object.defineProperty(navigator, 'share', { value: jest.fn(), configurable: true });
    try {
      putPageState(page.state);
      const { container } = renderWithApi(path, { '/gifts/:giftId': <GiftPage /> }, stubFetch());
      expect(asDom(container.innerHTML)).toBe(asDom(page.html));
    } finally {
      Reflect.deleteProperty(navigator, 'share');
    }
  });

  it('refuses a module it does not render with data', () => {
    expect(() => render({ module: 'GamePage', pathname: '/game', queries: [] })).toThrow('is not a page');
  });
});
