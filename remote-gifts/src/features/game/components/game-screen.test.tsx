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

const win = (playsRemaining = 2): PlayResult => ({ outcome: 'win', gift: giftView(), playsRemaining });
const lose = (playsRemaining = 2, soldOut = false): PlayResult => ({ outcome: 'lose', playsRemaining, soldOut });

function renderGame(fetchStub: FetchStub) {
  return renderWithApi('/game', { '/game': <GameScreen />, '/gifts/:giftId': <p>Gift page</p> }, fetchStub);
}

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
    expect(screen.getByText(/That was your last play for today/)).toBeInTheDocument();
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

  it('shows the daily limit (429) with roughly when to come back', async () => {
    const user = userEvent.setup();
    renderGame(stubFetch(() => errorResponse(429, 'Too many plays today.', { 'Retry-After': String(5 * 3600 - 120) })));

    await user.click(box(2));

    expect(await screen.findByRole('heading', { name: "You've used all your plays for today" })).toHaveFocus();
    expect(screen.getByText('Come back in about 5 hours to play again.')).toBeInTheDocument();
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
});
