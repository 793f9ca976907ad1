import { clearPageState, markupAsDom, putPageState } from 'shared/testing/server-render';
import GiftPage from '../src/exposed/gift-page';
import { GIFT_ID, giftView, renderWithApi, stubFetch } from '../src/test-utils';
import { render } from './render-pages';

afterEach(clearPageState);

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
    expect(markupAsDom(container.innerHTML)).toBe(markupAsDom(page.html));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("is also a phone's first render, whose browser has a share sheet the server has not", () => {
    Object.defineProperty(navigator, 'share', { value: jest.fn(), configurable: true });
    try {
      putPageState(page.state);
      const { container } = renderWithApi(path, { '/gifts/:giftId': <GiftPage /> }, stubFetch());
      expect(markupAsDom(container.innerHTML)).toBe(markupAsDom(page.html));
    } finally {
      Reflect.deleteProperty(navigator, 'share');
    }
  });

  it('refuses a module it does not render with data', () => {
    expect(() => render({ module: 'GamePage', pathname: '/game', queries: [] })).toThrow('is not a page');
  });
});
