import { waitFor } from '@testing-library/react';
import { chat } from 'shared/browser/chat';
import { startChat } from './start-chat';

const mockImported = jest.fn();
const mockCrisp = {
  configure: jest.fn(),
  load: jest.fn(),
  createSingletonIfNecessary: jest.fn(),
  chat: {
    show: jest.fn(),
    hide: jest.fn(),
    open: jest.fn(),
    close: jest.fn(),
    onChatOpened: jest.fn(),
    onChatClosed: jest.fn(),
  },
};

jest.mock('crisp-sdk-web', () => {
  mockImported();
  return { Crisp: mockCrisp };
});

it('without a chat configuration: the SDK is never fetched and chat is off', async () => {
  startChat(undefined);
  expect(chat.availability()).toBe('off');
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(mockImported).not.toHaveBeenCalled();
});

it('with one: fetches the SDK, loads Crisp from the configured script and connects the facade', async () => {
  startChat({ crispWebsiteId: 'site-1', scriptUrl: 'http://localhost:4510/l.js' });
  await waitFor(() => expect(chat.availability()).toBe('on'));
  expect(mockImported).toHaveBeenCalledTimes(1);
  expect(mockCrisp.configure).toHaveBeenCalledWith('site-1', {
    autoload: false,
    clientUrl: 'http://localhost:4510/l.js',
  });
  expect(mockCrisp.load).toHaveBeenCalledTimes(1);
  chat.open();
  expect(mockCrisp.chat.open).toHaveBeenCalledTimes(1);
});
