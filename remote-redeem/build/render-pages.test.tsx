import { forgetPrerenderedData } from 'shared/browser/api/prerendered-state';
import { PRERENDER_STATE_ELEMENT_ID, jsonForScriptElement } from 'shared/page-data';
import { REDEEM_ID, VOUCHER_CODE, aCompletedRedeem, aRedeem } from '../src/test-fixtures';
import { renderRedeemPage, stubApi } from '../src/test-utils';
import { render } from './render-pages';

/**
 * Markup as the browser's DOM holds it (attribute names are case-insensitive in HTML), with the
 * ids React makes for its fields named alike: a server's and a browser's differ in their form.
 */
function asDom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  // Styles as the DOM writes them (React sets an element's style through it in the browser), and
  // attributes in one order (React's browser build sets a field's in an order of its own).
  for (const element of template.content.querySelectorAll<HTMLElement | SVGElement>('*')) {
    const { cssText } = element.style;
    if (cssText) element.style.cssText = cssText;
    const attributes = [...element.attributes].map(({ name, value }) => [name, value] as const);
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) element.setAttribute(name, value);
  }
  return template.innerHTML.replace(/_[rR]_[0-9a-z]+_/g, '_id_');
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
});

const pageOf = (redeem: ReturnType<typeof aRedeem>) =>
  render({
    module: 'RedeemPage',
    pathname: `/redeem/${REDEEM_ID}`,
    queries: [{ queryKey: ['api', 'redeems', REDEEM_ID], data: redeem }],
  });

describe('the redeem page rendered on the server with its session', () => {
  it('holds the form of an open session, and is the browser’s first render with that data, which asks for nothing', () => {
    const page = pageOf(aRedeem());
    expect(page.html).toContain('Redeem your gift');
    expect(page.html).toContain('>Redeem my gift</button>');
    putPageState(page.state);
    const fetchStub = stubApi({});
    const { container } = renderRedeemPage(fetchStub);
    expect(asDom(container.innerHTML)).toBe(asDom(page.html));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('shows a completed session’s voucher only when the API gave it to this visitor', () => {
    expect(pageOf(aCompletedRedeem()).html).toContain(VOUCHER_CODE.slice(0, 4));
    expect(pageOf(aCompletedRedeem({ voucherCode: null, emailHint: null })).html).not.toContain(
      VOUCHER_CODE.slice(0, 4),
    );
  });
});
