import { act, renderHook } from '@testing-library/react';
import { chat } from './chat';
import { useChatAvailable } from './use-chat-available';

const noop = () => undefined;
const widget = { show: noop, hide: noop, open: noop, close: noop, toggle: noop };

it('is false until the host connects a widget, true then, false once chat is off', () => {
  const { result } = renderHook(() => useChatAvailable());
  expect(result.current).toBe(false);
  act(() => chat.connect(widget));
  expect(result.current).toBe(true);
  act(() => chat.disable());
  expect(result.current).toBe(false);
});
