import { act, render, screen } from '@testing-library/react';
import { chat, type ChatCommand, type ChatWidget } from 'shared/browser/chat';
import { renderApp, withThirdParties } from '../../test-utils';
import { useChatOutOfTheWay, useChatVisibility } from './use-chat-visibility';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';

function recordingWidget(): ChatWidget & { calls: ChatCommand[] } {
  const calls: ChatCommand[] = [];
  const record = (name: ChatCommand) => () => void calls.push(name);
  return {
    calls,
    show: record('show'),
    hide: record('hide'),
    open: record('open'),
    close: record('close'),
    toggle: record('toggle'),
  };
}

/** The visibility the widget ends up with: its latest show or hide. */
function lastVisibility(widget: { calls: ChatCommand[] }): ChatCommand | undefined {
  return widget.calls.filter((name) => name === 'show' || name === 'hide').at(-1);
}

// The facade is a module singleton: this file's first test sees it before any widget connected.
it('a direct load of a redeem page hides the bubble before the widget arrives; navigating between layouts switches it both ways', async () => {
  expect(chat.availability()).toBe('unknown');
  const { router, settled } = renderApp(`/redeem/${ID}`);
  await settled();
  expect(screen.getByRole('heading', { name: 'RedeemPage content' })).toBeInTheDocument();

  const widget = recordingWidget();
  act(() => chat.connect(widget));
  expect(widget.calls).toEqual(['hide']);

  await settled(() => router.navigate(`/gifts/${ID}`));
  expect(screen.getByRole('heading', { name: 'GiftPage content' })).toBeInTheDocument();
  expect(lastVisibility(widget)).toBe('show');

  await settled(() => router.navigate(`/redeem/${ID}`));
  expect(screen.getByRole('heading', { name: 'RedeemPage content' })).toBeInTheDocument();
  expect(lastVisibility(widget)).toBe('hide');

  await settled(() => router.navigate('/game'));
  expect(screen.getByRole('heading', { name: 'GamePage content' })).toBeInTheDocument();
  expect(lastVisibility(widget)).toBe('show');

  await settled(() => router.navigate(-1));
  expect(screen.getByRole('heading', { name: 'RedeemPage content' })).toBeInTheDocument();
  expect(lastVisibility(widget)).toBe('hide');
  expect(widget.calls).not.toContain('toggle');
});

it.each([
  ['/', 'HomePage', 'show'],
  ['/game', 'GamePage', 'show'],
  [`/gifts/${ID}`, 'GiftPage', 'show'],
  [`/redeem/${ID}`, 'RedeemPage', 'hide'],
])('%s (%s) asks the connected widget to %s the bubble', async (path, module, expected) => {
  const widget = recordingWidget();
  chat.connect(widget);
  await renderApp(path).settled();
  expect(screen.getByRole('heading', { name: `${module} content` })).toBeInTheDocument();
  expect(lastVisibility(widget)).toBe(expected);
});

it('keeps the bubble hidden while something asks it out of the way, then restores what the layout wants', () => {
  const widget = recordingWidget();
  chat.connect(widget);
  function Page({ covered, layoutVisible }: { covered: boolean; layoutVisible: boolean }) {
    useChatVisibility(layoutVisible);
    useChatOutOfTheWay(covered);
    return null;
  }
  const view = render(<Page covered layoutVisible />, { wrapper: withThirdParties() });
  expect(lastVisibility(widget)).toBe('hide');

  view.rerender(<Page covered={false} layoutVisible />);
  expect(lastVisibility(widget)).toBe('show');

  view.rerender(<Page covered layoutVisible={false} />);
  view.rerender(<Page covered={false} layoutVisible={false} />);
  expect(lastVisibility(widget)).toBe('hide');
  view.unmount();
});
