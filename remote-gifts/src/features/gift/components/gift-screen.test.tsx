import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { isHttpError, type HttpErrorShape } from 'shared/http-error';
import {
  deferredReply,
  errorResponse,
  giftView,
  GIFT_ID,
  jsonResponse,
  networkFailure,
  REDEEM_ID,
  renderWithApi,
  requestsOf,
  silenceWarnings,
  stubFetch,
  type FetchStub,
  type Reply,
} from '../../../test-utils';
import { GiftScreen } from './gift-screen';

const GET_GIFT = `GET http://api.test/api/gifts/${GIFT_ID}`;
const OPEN_REDEEM = `POST http://api.test/api/gifts/${GIFT_ID}/redeems`;

/** Stands in for the host's route error page: what was thrown, shown as the host would. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const { statusCode, message } = error as HttpErrorShape;
    return (
      <div data-testid="error-page" data-http-error={isHttpError(error)}>
        <p>{statusCode}</p>
        <p>{message}</p>
      </div>
    );
  }
}

function RedeemPage() {
  return <p>Redeem page for {useParams().redeemId}</p>;
}

function renderGift(fetchStub: FetchStub, giftId = GIFT_ID, visitorGifts?: Reply) {
  return renderWithApi(
    `/gifts/${giftId}`,
    {
      '/gifts/:giftId': (
        <ErrorBoundary>
          <GiftScreen />
        </ErrorBoundary>
      ),
      '/redeem/:redeemId': <RedeemPage />,
    },
    fetchStub,
    { visitorGifts },
  );
}

const loaded = () => screen.findByRole('heading', { level: 1, name: 'Your gift: Cinema ticket' });
const redeemButton = () => screen.queryByRole('button', { name: 'Redeem' });

/** jsdom has neither; the tests put in the ones they need. */
function stubNavigator(name: 'clipboard' | 'share', value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(navigator, 'share');
});

describe('GiftScreen, an available gift', () => {
  it('shows a skeleton, then the prize, its value, expiry date and status', async () => {
    const fetchStub = stubFetch(() => jsonResponse(giftView()));
    renderGift(fetchStub);

    expect(screen.getByRole('region', { name: 'Your gift' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading your gift…')).toBeInTheDocument();

    const gift = await loaded();
    const page = gift.closest('article') as HTMLElement;
    expect(page).toHaveTextContent('€12.50');
    expect(page).toHaveTextContent('One seat at any screening, any day of the week.');
    expect(page).toHaveTextContent('Ready to redeem');
    expect(page).toHaveTextContent('Expires on December 22, 2026');
    expect(screen.getByText('December 22, 2026')).toHaveAttribute('datetime', '2026-12-22T12:00:00.000Z');
    expect(redeemButton()).toBeEnabled();
    expect(document.title).toBe('Your gift: Cinema ticket · Gift Box');
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT]);
  });

  it("shows the prize's icon from the bundle, without asking any icon service", async () => {
    const gift = giftView();
    const fetchStub = stubFetch(() => jsonResponse({ ...gift, prize: { ...gift.prize, icon: 'mdi:movie-open' } }));
    renderGift(fetchStub);

    const page = (await loaded()).closest('article') as HTMLElement;
    const icon = page.querySelector('.p-gift__prize-icon [data-icon="mdi:movie-open"]');
    expect(icon?.tagName.toLowerCase()).toBe('svg');
    expect(icon?.querySelector('path')).toBeInTheDocument();
    expect(icon).toHaveAttribute('aria-hidden', 'true');
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT]);
  });

  it('keeps an empty box of the same size for a prize icon that cannot be shown, and the page works', async () => {
    const warn = silenceWarnings();
    const gift = giftView();
    renderGift(stubFetch(() => jsonResponse({ ...gift, prize: { ...gift.prize, icon: 'mdi:not-bundled-here' } })));

    const page = (await loaded()).closest('article') as HTMLElement;
    const icon = page.querySelector('.p-gift__prize-icon [data-icon="mdi:not-bundled-here"]');
    expect(icon?.tagName.toLowerCase()).toBe('span');
    expect(icon).toHaveStyle({ width: '2.25rem', height: '2.25rem' });
    expect(redeemButton()).toBeEnabled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"mdi:not-bundled-here"'));
  });

  it("shows the same share button with a share sheet and without, so nothing changes when the app takes over the server's page", async () => {
    const shareButton = async () => {
      const { unmount } = renderGift(stubFetch(() => jsonResponse(giftView())));
      const actions = (await loaded()).closest('article')?.querySelector('.p-gift__actions') as HTMLElement;
      const button = within(actions).getAllByRole('button').at(-1) as HTMLElement;
      const markup = { html: button.outerHTML, name: button.textContent };
      unmount();
      return markup;
    };

    const withoutSheet = await shareButton();
    stubNavigator('share', jest.fn().mockResolvedValue(undefined));
    const withSheet = await shareButton();

    expect(withSheet).toEqual(withoutSheet);
    expect(withSheet.name).toBe('Share link');
    expect(withSheet.html).toContain('data-icon="mdi:share-variant"');
  });

  it('copies the link where there is no share sheet, and says so', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn().mockResolvedValue(undefined);
    stubNavigator('clipboard', { writeText });
    renderGift(stubFetch(() => jsonResponse(giftView())));

    await user.click(await screen.findByRole('button', { name: 'Share link' }));

    expect(await screen.findByText('Link copied')).toHaveAttribute('role', 'status');
    expect(writeText).toHaveBeenCalledWith(window.location.href);
  });

  it('says when copying failed and shows the address to copy by hand', async () => {
    silenceWarnings();
    const user = userEvent.setup();
    stubNavigator('clipboard', {
      writeText: jest.fn().mockRejectedValue(new DOMException('Denied', 'NotAllowedError')),
    });
    renderGift(stubFetch(() => jsonResponse(giftView())));

    await user.click(await screen.findByRole('button', { name: 'Share link' }));

    expect(await screen.findByText('Copy failed: select and copy the address')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('textbox', { name: 'Gift link' })).toHaveValue(window.location.href);
  });

  it('uses the system share sheet where there is one', async () => {
    const user = userEvent.setup();
    const share = jest.fn().mockResolvedValue(undefined);
    const writeText = jest.fn();
    stubNavigator('share', share);
    stubNavigator('clipboard', { writeText });
    renderGift(stubFetch(() => jsonResponse(giftView())));

    await user.click(await screen.findByRole('button', { name: 'Share link' }));

    expect(share).toHaveBeenCalledWith({
      title: 'Cinema ticket · Gift Box',
      text: 'A gift for you: Cinema ticket',
      url: window.location.href,
    });
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
  });

  it('does nothing more when the visitor closes the share sheet', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn();
    stubNavigator('share', jest.fn().mockRejectedValue(new DOMException('Cancelled', 'AbortError')));
    stubNavigator('clipboard', { writeText });
    renderGift(stubFetch(() => jsonResponse(giftView())));

    await user.click(await screen.findByRole('button', { name: 'Share link' }));

    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText(/Copy failed/)).not.toBeInTheDocument();
  });

  it('opens a redeem session and goes to it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubFetch(
      () => jsonResponse(giftView()),
      () => jsonResponse({ redeemId: REDEEM_ID }, { status: 201 }),
    );
    renderGift(fetchStub);

    await user.click((await screen.findByRole('button', { name: 'Redeem' })) as HTMLElement);

    expect(await screen.findByText(`Redeem page for ${REDEEM_ID}`)).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT, OPEN_REDEEM]);
  });

  it('shows that it is busy while the session opens, and cannot send twice', async () => {
    const user = userEvent.setup();
    const session = deferredReply();
    const fetchStub = stubFetch(() => jsonResponse(giftView()), session.reply);
    renderGift(fetchStub);

    await user.dblClick((await screen.findByRole('button', { name: 'Redeem' })) as HTMLElement);
    const busy = screen.getByRole('button', { name: 'Opening…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    await user.click(busy);
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT, OPEN_REDEEM]);

    await act(async () => session.resolve(jsonResponse({ redeemId: REDEEM_ID })));
    expect(await screen.findByText(`Redeem page for ${REDEEM_ID}`)).toBeInTheDocument();
  });

  it('shows the gift as redeemed when the session is refused with 409', async () => {
    const user = userEvent.setup();
    renderGift(
      stubFetch(
        () => jsonResponse(giftView()),
        () => errorResponse(409, 'This gift has already been redeemed.'),
      ),
    );

    await user.click((await screen.findByRole('button', { name: 'Redeem' })) as HTMLElement);

    expect(await screen.findByText('Redeemed')).toBeInTheDocument();
    expect(screen.getByText(/This gift has already been redeemed\./)).toBeInTheDocument();
    expect(redeemButton()).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the gift as expired when the session is refused with 410', async () => {
    const user = userEvent.setup();
    renderGift(
      stubFetch(
        () => jsonResponse(giftView()),
        () => errorResponse(410, 'This gift has expired.'),
      ),
    );

    await user.click((await screen.findByRole('button', { name: 'Redeem' })) as HTMLElement);

    expect(await screen.findByText('Expired')).toBeInTheDocument();
    expect(screen.getByText(/This gift has expired\. It can no longer be redeemed\./)).toBeInTheDocument();
    expect(redeemButton()).not.toBeInTheDocument();
  });

  it('offers to try again when opening the session fails, and the retry goes on', async () => {
    silenceWarnings();
    const user = userEvent.setup();
    const fetchStub = stubFetch(
      () => jsonResponse(giftView()),
      networkFailure,
      () => jsonResponse({ redeemId: REDEEM_ID }),
    );
    renderGift(fetchStub);

    await user.click((await screen.findByRole('button', { name: 'Redeem' })) as HTMLElement);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Redeeming didn't start");
    expect(alert).toHaveTextContent('could not be reached');

    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText(`Redeem page for ${REDEEM_ID}`)).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT, OPEN_REDEEM, OPEN_REDEEM]);
  });
});

describe('GiftScreen, a gift that cannot be redeemed', () => {
  it('shows a redeemed gift with its date and no redeem action', async () => {
    renderGift(stubFetch(() => jsonResponse(giftView({ status: 'redeemed', redeemedAt: '2026-11-30T12:00:00.000Z' }))));

    const page = (await loaded()).closest('article') as HTMLElement;
    expect(page).toHaveTextContent('Redeemed');
    expect(page).toHaveTextContent('Redeemed on November 30, 2026. It cannot be redeemed again.');
    expect(redeemButton()).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share link' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See your voucher' })).not.toBeInTheDocument();
  });

  it('leads the browser that redeemed the gift back to its voucher', async () => {
    const redeemed = giftView({ status: 'redeemed', redeemedAt: '2026-11-30T12:00:00.000Z' });
    renderGift(
      stubFetch(() => jsonResponse(redeemed)),
      GIFT_ID,
      () => jsonResponse({ gifts: [{ ...redeemed, redeemId: REDEEM_ID }] }),
    );

    const voucher = await screen.findByRole('link', { name: 'See your voucher' });
    expect(voucher).toHaveAttribute('href', `/redeem/${REDEEM_ID}`);
  });
});

describe('GiftScreen, when there is no gift to show', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    // React reports errors that reach a boundary; here they are the expected outcome.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('throws a 404 for an unknown gift, for the host to show its error page', async () => {
    renderGift(stubFetch(() => errorResponse(404, 'No gift with this id.')));

    const errorPage = await screen.findByTestId('error-page');
    expect(errorPage).toHaveAttribute('data-http-error', 'true');
    expect(errorPage).toHaveTextContent('404');
    expect(errorPage).toHaveTextContent('This gift does not exist. Check the link you were sent.');
  });

  it('throws a 404 for a malformed id without asking the API', async () => {
    const fetchStub = stubFetch();
    renderGift(fetchStub, 'not-an-id');

    expect(screen.getByTestId('error-page')).toHaveTextContent('404');
    expect(screen.getByTestId('error-page')).toHaveTextContent('This gift does not exist.');
    expect(fetchStub).not.toHaveBeenCalled();
  });
});

describe('GiftScreen, an expired gift', () => {
  it('says plainly that it expired and on which day, what it was, and gives the way home; no error page', async () => {
    const user = userEvent.setup();
    const fetchStub = stubFetch(() =>
      jsonResponse(giftView({ status: 'expired', expiresAt: '2026-10-01T12:00:00.000Z' })),
    );
    renderWithApi(
      `/gifts/${GIFT_ID}`,
      {
        '/gifts/:giftId': (
          <ErrorBoundary>
            <GiftScreen />
          </ErrorBoundary>
        ),
        '/': <p>Home page</p>,
      },
      fetchStub,
    );

    const heading = await screen.findByRole('heading', { level: 1, name: 'This gift has expired' });
    expect(screen.queryByTestId('error-page')).not.toBeInTheDocument();
    const page = heading.closest('article') as HTMLElement;
    expect(page).toHaveTextContent('It was a gift of Cinema ticket.');
    // The day as the app writes dates, and the instant for machines.
    expect(within(page).getByRole('status')).toHaveTextContent(
      'Expired on October 1, 2026. It can no longer be redeemed.',
    );
    expect(within(page).getByText('October 1, 2026')).toHaveAttribute('datetime', '2026-10-01T12:00:00.000Z');
    expect(document.title).toMatch(/^This gift has expired/);
    expect(redeemButton()).not.toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT]);

    await user.click(within(page).getByRole('link', { name: 'Back to home' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });
});

describe('GiftScreen, when the API fails', () => {
  it.each([
    ['answers 5xx', () => errorResponse(500, 'Something broke on our side.'), 'Something broke on our side.'],
    ['is unreachable', networkFailure, 'could not be reached'],
  ])(
    'shows a retryable error inside the page when the API %s, and the retry loads the gift',
    async (_case, failure, message) => {
      silenceWarnings();
      const user = userEvent.setup();
      const fetchStub = stubFetch(failure, () => jsonResponse(giftView()));
      renderGift(fetchStub);

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent("Your gift didn't load");
      expect(alert).toHaveTextContent(message);
      expect(screen.getByRole('heading', { level: 1, name: 'Your gift' })).toBeInTheDocument();
      expect(screen.queryByTestId('error-page')).not.toBeInTheDocument();

      await user.click(within(alert).getByRole('button', { name: 'Try again' }));

      expect(await loaded()).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
      expect(requestsOf(fetchStub)).toEqual([GET_GIFT, GET_GIFT]);
    },
  );
});

describe('GiftScreen and the one retry rule', () => {
  it.each([
    ['a timeout (408)', 408, 'The request took too long.'],
    ['a rate limit (429)', 429, 'Too many requests.'],
  ])('keeps %s on the page with "Try again"', async (_case, status, message) => {
    silenceWarnings();
    const fetchStub = stubFetch(() => errorResponse(status, message));
    renderGift(fetchStub);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Your gift didn't load");
    expect(alert).toHaveTextContent(message);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([GET_GIFT]);
  });

  it('shows a 400 for the gift id as the missing gift it is', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderGift(stubFetch(() => errorResponse(400, 'params/giftId must match pattern')));

    const errorPage = await screen.findByTestId('error-page');
    expect(errorPage).toHaveTextContent('404');
    expect(errorPage).toHaveTextContent('This gift does not exist. Check the link you were sent.');
  });
});
