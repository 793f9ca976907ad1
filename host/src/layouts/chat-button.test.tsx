import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { chat } from 'shared/browser/chat';
import { ChatButton } from './chat-button';

const widget = { show: jest.fn(), hide: jest.fn(), open: jest.fn(), close: jest.fn(), toggle: jest.fn() };

// The facade is a module singleton: the tests follow its life, unknown → on → off.
it('renders nothing while the host has not said whether chat is configured', () => {
  render(<ChatButton />);
  expect(screen.queryByRole('button', { name: 'Chat with us' })).toBeNull();
});

it('appears once a widget is connected, and toggles the chat', async () => {
  render(<ChatButton />);
  act(() => chat.connect(widget));
  const button = screen.getByRole('button', { name: 'Chat with us' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(button);
  expect(widget.toggle).toHaveBeenCalledTimes(1);
});

it('says whether the chat window is open, as the provider reports it', () => {
  render(<ChatButton />);
  const button = screen.getByRole('button', { name: 'Chat with us' });
  act(() => chat.reportOpen(true));
  expect(button).toHaveAttribute('aria-expanded', 'true');
  act(() => chat.reportOpen(false));
  expect(button).toHaveAttribute('aria-expanded', 'false');
});

it('goes away when chat is switched off', () => {
  render(<ChatButton />);
  expect(screen.getByRole('button', { name: 'Chat with us' })).toBeInTheDocument();
  act(() => chat.disable());
  expect(screen.queryByRole('button', { name: 'Chat with us' })).toBeNull();
});
