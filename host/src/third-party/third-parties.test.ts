import { analytics } from 'shared/browser/analytics';
import { chat as sharedChat } from 'shared/browser/chat';
import type { RuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { AfterPaintDeps, RouterLike } from './after-first-paint';
import { createChatVisibility } from './chat/chat-visibility';
import { RouteTable } from '../route-table/route-table';
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

it('starts its third parties after the first page, once however often the app asks (strict mode runs effects twice)', async () => {
  const afterPaint = immediatePaint();
  const loadMixpanel = jest.fn();
  const loadLater = jest.fn(() => import('./later'));
  const thirdParties = createThirdParties({ afterPaint, loadMixpanel, loadLater });
  expect(thirdParties.consent.getState().relevant).toBe(false);

  const first = thirdParties.start(CONFIG, FIRST_PAGE_SHOWN);
  const second = thirdParties.start(CONFIG, FIRST_PAGE_SHOWN);
  await Promise.all([first, second]);

  expect(afterPaint.requestAnimationFrame).toHaveBeenCalledTimes(1);
  // Their code is fetched once, after the first page.
  expect(loadLater).toHaveBeenCalledTimes(1);
  // Analytics started: consent is asked for, and nothing is loaded before the answer.
  expect(thirdParties.consent.getState().relevant).toBe(true);
  expect(loadMixpanel).not.toHaveBeenCalled();
});

it('waits for the first page before fetching their code, and leaves analytics and chat off when it cannot be fetched', async () => {
  const loadLater = jest.fn(() => Promise.reject(new Error('Loading chunk third-parties failed')));
  const chat = { show: jest.fn(), hide: jest.fn() };
  let firstPageShown = () => undefined as void;
  const router: RouterLike = {
    state: { initialized: false, navigation: { state: 'loading' } },
    subscribe: (listener) => {
      firstPageShown = () => listener({ initialized: true, navigation: { state: 'idle' } });
      return () => undefined;
    },
  };
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const disableAnalytics = jest.spyOn(analytics, 'disable');
  const disableChat = jest.spyOn(sharedChat, 'disable');
  try {
    const thirdParties = createThirdParties({
      // The first page's time limit does not run out: the page is shown first.
      afterPaint: { ...immediatePaint(), setTimeout: (run, ms) => (ms === 0 ? run() : undefined) },
      loadLater,
      chatVisibility: createChatVisibility(chat),
    });
    const started = thirdParties.start(CONFIG, router);
    expect(loadLater).not.toHaveBeenCalled();

    firstPageShown();
    await started;

    expect(loadLater).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('analytics and chat could not start', expect.any(Error));
    expect(disableAnalytics).toHaveBeenCalled();
    expect(disableChat).toHaveBeenCalled();
    expect(thirdParties.consent.getState().relevant).toBe(false);
  } finally {
    error.mockRestore();
    disableAnalytics.mockRestore();
    disableChat.mockRestore();
  }
});

it('fetches no code for third parties when the configuration names none, and switches both facades off', async () => {
  const loadLater = jest.fn(() => import('./later'));
  const disableAnalytics = jest.spyOn(analytics, 'disable');
  const disableChat = jest.spyOn(sharedChat, 'disable');
  try {
    const thirdParties = createThirdParties({ afterPaint: immediatePaint(), loadLater });
    const { analytics: _mixpanel, ...none } = CONFIG;
    await thirdParties.start(none, FIRST_PAGE_SHOWN);

    expect(loadLater).not.toHaveBeenCalled();
    expect(disableAnalytics).toHaveBeenCalled();
    expect(disableChat).toHaveBeenCalled();
    // Nothing to consent to: the banner never opens.
    expect(thirdParties.consent.getState().relevant).toBe(false);
  } finally {
    disableAnalytics.mockRestore();
    disableChat.mockRestore();
  }
});

it('keeps its state to itself: another instance shares no consent, page view or chat bubble', () => {
  const chat = { show: jest.fn(), hide: jest.fn() };
  const routes = RouteTable.registry();
  const first = createThirdParties({ routes, chatVisibility: createChatVisibility(chat) });
  const second = createThirdParties({ routes, chatVisibility: createChatVisibility(chat) });

  first.consent.markRelevant();
  first.pageViews.track('/game');
  first.chatVisibility.cover();
  second.chatVisibility.setLayoutWants(true);

  expect(second.consent.getState().relevant).toBe(false);
  expect(second.pageViews.current()).toBe('/');
  expect(chat.hide).toHaveBeenCalledTimes(1);
  expect(chat.show).toHaveBeenCalledTimes(1);
});
