import type { RuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { AfterPaintDeps, RouterLike } from './after-first-paint';
import { createChatVisibility } from './chat/chat-visibility';
import { createThirdParties } from './third-parties';

const CONFIG: RuntimeConfig = {
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
  buildCheckIntervalMs: 3_600_000,
  remoteTimeoutMs: 10_000,
  analytics: { mixpanelToken: 'test-token' },
};
const FIRST_PAGE_SHOWN: RouterLike = {
  state: { initialized: true, navigation: { state: 'idle' } },
  subscribe: () => () => undefined,
};

/** Frames and timeouts run at once, so the tasks start within start(). */
function immediatePaint(): AfterPaintDeps & { requestAnimationFrame: jest.Mock } {
  return {
    requestAnimationFrame: jest.fn((run: () => void) => run()),
    setTimeout: (run) => run(),
    clearTimeout: () => undefined,
  };
}

beforeEach(() => window.localStorage.clear());

it('starts its third parties after the first page, once however often the app asks (strict mode runs effects twice)', () => {
  const afterPaint = immediatePaint();
  const loadMixpanel = jest.fn();
  const thirdParties = createThirdParties({ afterPaint, loadMixpanel });
  expect(thirdParties.consent.getState().relevant).toBe(false);

  thirdParties.start(CONFIG, FIRST_PAGE_SHOWN);
  thirdParties.start(CONFIG, FIRST_PAGE_SHOWN);

  expect(afterPaint.requestAnimationFrame).toHaveBeenCalledTimes(1);
  // Analytics started: consent is asked for, and nothing is loaded before the answer.
  expect(thirdParties.consent.getState().relevant).toBe(true);
  expect(loadMixpanel).not.toHaveBeenCalled();
});

it('keeps its state to itself: another instance shares no consent, page view or chat bubble', () => {
  const chat = { show: jest.fn(), hide: jest.fn() };
  const first = createThirdParties({ chatVisibility: createChatVisibility(chat) });
  const second = createThirdParties({ chatVisibility: createChatVisibility(chat) });

  first.consent.markRelevant();
  first.pageViews.track('/game');
  first.chatVisibility.cover();
  second.chatVisibility.setLayoutWants(true);

  expect(second.consent.getState().relevant).toBe(false);
  expect(second.pageViews.current()).toBe('/');
  expect(chat.hide).toHaveBeenCalledTimes(1);
  expect(chat.show).toHaveBeenCalledTimes(1);
});
