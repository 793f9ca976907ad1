import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlayResult } from 'shared/api/contract';
import {
  deferredReply,
  errorResponse,
  giftView,
  GIFT_ID,
  jsonResponse,
  networkFailure,
  renderWithApi,
  requestsOf,
  silenceWarnings,
  stubFetch,
  type FetchStub,
} from '../../../test-utils';
import { REVEAL_FALLBACK_MS } from '../hooks/use-reveal';
import { GameScreen } from './game-screen';

const PLAY = 'POST http://api.test/api/game/plays';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The next midnight UTC, when the API's day ends. */
const RESET_AT = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS).toISOString();
const win = (playsRemaining = 2): PlayResult => ({
  outcome: 'win',
  gift: giftView(),
  playsRemaining,
  playsResetAt: RESET_AT,
});
const lose = (playsRemaining = 2, soldOut = false): PlayResult => ({
  outcome: 'lose',
  playsRemaining,
  playsResetAt: RESET_AT,
  soldOut,
});

function renderGame(fetchStub: FetchStub) {
  return renderWithApi('/game', { '/game': <GameScreen />, '/gifts/:giftId': <p>Gift page</p> }, fetchStub);
}

/** The idempotency key of each request made. */
const keysOf = (fetchStub: FetchStub) =>
  fetchStub.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);

const box = (n: number) => screen.getByRole('button', { name: `Box ${n}` });
const boxes = () => within(screen.getByRole('list', { name: 'Boxes' })).getAllByRole('button');

/** The picked box's opening animation has played (jsdom runs no CSS). */
function finishOpening(n: number) {
  fireEvent.animationEnd(box(n));
}

describe('GameScreen', () => {
  it('offers three boxes to pick, and names the page', () => {
    renderGame(stubFetch());
    expect(screen.getByRole('heading', { level: 1, name: 'Pick a box' })).toBeInTheDocument();
    expect(boxes().map((button) => button.textContent)).toEqual(['Box 1', 'Box 2', 'Box 3']);
    expect(boxes().every((button) => !(button as HTMLButtonElement).disabled)).toBe(true);
    expect(document.title).toBe('Play · Gift Box');
  });

  it('plays on a pick, opens the box, then shows the prize and the way to the gift', async () => {
    const user = userEvent.setup();
    const fetchStub = stubFetch(() => jsonResponse(win(2)));
    renderGame(fetchStub);

    await user.click(box(2));
    await waitFor(() => expect(screen.getByText('2 plays left today')).toBeInTheDocument());
    // The outcome waits for the box to open.
    expect(screen.queryByRole('heading', { name: 'You won!' })).not.toBeInTheDocument();
    finishOpening(2);

    const outcome = screen.getByRole('region', { name: 'You won!' });
    expect(within(outcome).getByRole('heading', { name: 'You won!' })).toHaveFocus();
    expect(outcome).toHaveTextContent('Cinema ticket');
    expect(outcome).toHaveTextContent('€12.50');
    expect(outcome.querySelector('[data-icon="mdi:movie-open"]')).toHaveStyle({ width: '3rem', height: '3rem' });
    expect(requestsOf(fetchStub)).toEqual([PLAY]);
    expect(boxes().every((button) => (button as HTMLButtonElement).disabled)).toBe(true);

    const open = within(outcome).getByRole('link', { name: 'Open your gift' });
    expect(open).toHaveAttribute('href', `/gifts/${GIFT_ID}`);
    await user.click(open);
    expect(await screen.findByText('Gift page')).toBeInTheDocument();
  });

  it("shows the won prize's icon", async () => {
    const user = userEvent.setup();
    const gift = giftView();
    const result: PlayResult = {
      outcome: 'win',
      gift: { ...gift, prize: { ...gift.prize, icon: 'mdi:gift' } },
      playsRemaining: 0,
      playsResetAt: RESET_AT,
    };
    renderGame(stubFetch(() => jsonResponse(result)));

    await user.click(box(1));
    await screen.findByText('No plays left today');
    finishOpening(1);

    const icon = (await screen.findByRole('region', { name: 'You won!' })).querySelector('[data-icon="mdi:gift"]');
    expect(icon?.tagName.toLowerCase()).toBe('svg');
    expect(icon?.querySelector('path')).toBeInTheDocument();
  });

  it('says so on a loss and lets the visitor play again', async () => {
    const user = userEvent.setup();
    const fetchStub = stubFetch(
      () => jsonResponse(lose(1)),
      () => jsonResponse(lose(0)),
    );
    renderGame(fetchStub);

    await user.click(box(1));
    await waitFor(() => expect(box(1)).toBeDisabled());
    finishOpening(1);
    expect(await screen.findByRole('heading', { name: 'Not this time' })).toBeInTheDocument();
    expect(screen.getByText('Box 1 was empty.')).toBeInTheDocument();
    expect(screen.getByText('1 play left today')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play again' }));
    expect(screen.queryByRole('heading', { name: 'Not this time' })).not.toBeInTheDocument();
    expect(box(1)).toBeEnabled();
    expect(box(1)).toHaveFocus();

    await user.click(box(3));
    await waitFor(() => expect(screen.getByText('No plays left today')).toBeInTheDocument());
    finishOpening(3);
    expect(screen.getByText('Box 3 was empty.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Play again' })).not.toBeInTheDocument();
    expect(
      screen.getByText(/^That was your last play for today\. New plays at \d\d:\d\d (today|tomorrow)\.$/),
    ).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([PLAY, PLAY]);
  });

  it('tells the visitor when no prize is left to win', async () => {
    const user = userEvent.setup();
    renderGame(stubFetch(() => jsonResponse(lose(2, true))));

    await user.click(box(3));
    await waitFor(() => expect(box(3)).toBeDisabled());
    finishOpening(3);

    const outcome = await screen.findByRole('region', { name: 'All prizes have been won' });
    expect(outcome).toHaveTextContent('nobody can win any more');
    expect(screen.queryByRole('button', { name: 'Play again' })).not.toBeInTheDocument();
    expect(screen.queryByText('Not this time')).not.toBeInTheDocument();
  });

  it('shows the daily limit (429) with when plays come back', async () => {
    const user = userEvent.setup();
    renderGame(stubFetch(() => errorResponse(429, 'Too many plays today.', { 'Retry-After': String(5 * 3600 - 120) })));

    await user.click(box(2));

    expect(await screen.findByRole('heading', { name: "You've used all your plays for today" })).toHaveFocus();
    // In the visitor's own time, not as a wait.
    expect(screen.getByText(/^Come back at \d\d:\d\d (today|tomorrow) to play again\.$/)).toBeInTheDocument();
    expect(screen.getByText('No plays left today')).toBeInTheDocument();
    expect(boxes().every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says "tomorrow" when the limit comes without Retry-After', async () => {
    const user = userEvent.setup();
    renderGame(stubFetch(() => errorResponse(429, 'Too many plays today.')));

    await user.click(box(1));

    expect(await screen.findByText('Come back tomorrow to play again.')).toBeInTheDocument();
  });

  it.each([
    ['the API is unreachable', networkFailure, 'could not be reached'],
    [
      'the API fails (5xx)',
      () => errorResponse(503, 'The game is resting for a moment.'),
      'The game is resting for a moment.',
    ],
  ])('offers to try again when %s, and the retry plays', async (_case, failure, message) => {
    silenceWarnings();
    const user = userEvent.setup();
    const fetchStub = stubFetch(failure, () => jsonResponse(win(1)));
    renderGame(fetchStub);

    await user.click(box(2));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Your play didn't go through");
    expect(alert).toHaveTextContent(message);
    expect(box(2)).toBeEnabled();

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    finishOpening(2);
    expect(screen.getByRole('heading', { name: 'You won!' })).toBeInTheDocument();
    expect(requestsOf(fetchStub)).toEqual([PLAY, PLAY]);
    // The retry is the same play: the API answers it once, whatever reached it the first time.
    expect(new Set(keysOf(fetchStub)).size).toBe(1);
  });

  it('disables every box while the server decides, so one pick is one play', async () => {
    const user = userEvent.setup();
    const answer = deferredReply();
    const fetchStub = stubFetch(answer.reply);
    renderGame(fetchStub);

    await user.dblClick(box(1));
    expect(screen.getByRole('status')).toHaveTextContent('Opening box 1…');
    expect(boxes().every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
    await user.click(box(2));
    fireEvent.click(box(3));
    expect(fetchStub).toHaveBeenCalledTimes(1);

    await act(async () => answer.resolve(jsonResponse(lose(2))));
    finishOpening(1);
    expect(screen.getByText('Box 1 was empty.')).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('plays from the keyboard', async () => {
    const user = userEvent.setup();
    const fetchStub = stubFetch(() => jsonResponse(lose(2)));
    renderGame(fetchStub);

    await user.tab();
    expect(box(1)).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(box(2)).toBeDisabled());
    finishOpening(2);
    expect(screen.getByText('Box 2 was empty.')).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('shows the outcome at once to visitors who asked for less motion', async () => {
    const matchMedia = jest.fn((query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      addEventListener: jest.fn(),
      removeEventListener: jest.fn(),
    }));
    Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true });
    try {
      const user = userEvent.setup();
      renderGame(stubFetch(() => jsonResponse(win(2))));

      await user.click(box(2));

      expect(await screen.findByRole('heading', { name: 'You won!' })).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  it('shows the outcome even if the opening animation never reports its end', async () => {
    jest.useFakeTimers();
    try {
      renderGame(stubFetch(() => jsonResponse(lose(2))));

      fireEvent.click(box(1));
      await waitFor(() => expect(box(1)).toBeDisabled());
      await act(async () => {
        await Promise.resolve();
      });
      expect(screen.queryByText('Box 1 was empty.')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(REVEAL_FALLBACK_MS));

      expect(screen.getByText('Box 1 was empty.')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  describe('keeping what was won', () => {
    afterEach(() => Reflect.deleteProperty(navigator, 'clipboard'));

    it('shows the gift link with Copy link on a win', async () => {
      const user = userEvent.setup();
      const writeText = jest.fn(async () => undefined);
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
      renderGame(stubFetch(() => jsonResponse(win(2))));
      await user.click(box(2));
      await waitFor(() => expect(box(2)).toBeDisabled());
      finishOpening(2);

      const link = screen.getByRole('textbox', { name: 'Your gift’s link' });
      expect(link).toHaveValue(`${window.location.origin}/gifts/${GIFT_ID}`);
      await user.click(screen.getByRole('button', { name: 'Copy link' }));
      expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/gifts/${GIFT_ID}`);
      expect(await screen.findByText('Link copied')).toBeInTheDocument();
    });

    it('asks the same play again when the page is opened again (a reload), and shows its answer at once', async () => {
      const user = userEvent.setup();
      const first = deferredReply();
      const firstStub = stubFetch(first.reply);
      const page = renderGame(firstStub);
      await user.click(box(3));
      await waitFor(() => expect(firstStub).toHaveBeenCalledTimes(1));
      // The tab reloads before the answer arrives.
      page.unmount();

      const againStub = stubFetch(() => jsonResponse(win(1)));
      renderGame(againStub);
      expect(await screen.findByRole('heading', { name: 'You won!' })).toBeInTheDocument();
      expect(box(3)).toBeDisabled();
      expect(keysOf(againStub)).toEqual(keysOf(firstStub));
      expect(keysOf(firstStub)[0]).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    });

    it('starts a new play with a new key after Play again, and does not ask the old one on the next visit', async () => {
      const user = userEvent.setup();
      const fetchStub = stubFetch(
        () => jsonResponse(lose(2)),
        () => jsonResponse(lose(1)),
      );
      const page = renderGame(fetchStub);
      await user.click(box(1));
      await waitFor(() => expect(box(1)).toBeDisabled());
      finishOpening(1);
      await user.click(await screen.findByRole('button', { name: 'Play again' }));
      page.unmount();

      const nextVisit = stubFetch(() => jsonResponse(lose(1)));
      renderGame(nextVisit);
      await user.click(box(2));
      await waitFor(() => expect(nextVisit).toHaveBeenCalledTimes(1));
      expect(keysOf(nextVisit)[0]).not.toBe(keysOf(fetchStub)[0]);
    });

    it("lists the visitor's gifts, newest first, each linking to its page", async () => {
      const user = userEvent.setup();
      const gifts = [
        { ...giftView({ giftId: 'Bbbbbbbbbbbbbbbbbbbbbbbb' }), redeemId: null },
        {
          ...giftView({ status: 'redeemed', redeemedAt: '2026-11-23T09:00:00.000Z' }),
          prize: { ...giftView().prize, name: 'Tote bag', value: { label: 'Organic cotton' } },
          redeemId: 'Rd3_-eEmMeNoWpLeAsE12345',
        },
      ];
      renderWithApi('/game', { '/game': <GameScreen />, '/gifts/:giftId': <p>Gift page</p> }, stubFetch(), {
        visitorGifts: () => jsonResponse({ gifts }),
      });

      const list = await screen.findByRole('region', { name: 'Your gifts' });
      const links = within(list).getAllByRole('link');
      expect(links.map((link) => link.getAttribute('href'))).toEqual([
        '/gifts/Bbbbbbbbbbbbbbbbbbbbbbbb',
        `/gifts/${GIFT_ID}`,
      ]);
      expect(links[0]).toHaveTextContent('Ready to redeem');
      expect(links[1]).toHaveTextContent('Tote bag');
      expect(links[1]).toHaveTextContent('Redeemed on November 23, 2026');
      await user.click(links[0]!);
      expect(await screen.findByText('Gift page')).toBeInTheDocument();
    });

    it("takes the visitor to the list when they came by the header's link (#your-gifts)", async () => {
      renderWithApi('/game#your-gifts', { '/game': <GameScreen /> }, stubFetch(), {
        visitorGifts: () => jsonResponse({ gifts: [{ ...giftView(), redeemId: null }] }),
      });
      const list = await screen.findByRole('region', { name: 'Your gifts' });
      await waitFor(() => expect(list).toHaveFocus());
    });

    it('shows no list to a visitor without gifts, nor when the list cannot load', async () => {
      silenceWarnings();
      renderWithApi('/game', { '/game': <GameScreen /> }, stubFetch(), {
        visitorGifts: () => errorResponse(503, 'down'),
      });
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      expect(screen.queryByRole('region', { name: 'Your gifts' })).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
