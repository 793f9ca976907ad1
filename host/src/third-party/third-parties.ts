/**
 * The host's optional third parties as one object, created once by the app: the consent store,
 * the router's page views, the chat bubble's visibility, and their start after the first page
 * (after-first-paint.ts). Each is off unless the runtime configuration names it, and none can
 * stop the application: a failure is logged.
 */
import type { RuntimeConfig } from 'shared/runtime-config';
import { afterFirstPage, type AfterPaintDeps, type RouterLike } from './after-first-paint';
import { createConsentStore, type ConsentStore } from './analytics/consent-store';
import type { MixpanelLibrary } from './analytics/mixpanel-sink';
import { createPageViews, type PageViews } from './analytics/page-views';
import { startAnalytics } from './analytics/start-analytics';
import { createChatVisibility, type ChatVisibility } from './chat/chat-visibility';
import { startChat } from './chat/start-chat';

export interface ThirdParties {
  /** The banner, the footer's "Cookie settings" and the analytics start-up share it. */
  readonly consent: ConsentStore;
  readonly pageViews: PageViews;
  readonly chatVisibility: ChatVisibility;
  /** Starts consent and analytics, the tag manager and live chat after the first page; once. */
  start(config: RuntimeConfig, router: RouterLike): void;
}

export interface ThirdPartiesOptions {
  consent?: ConsentStore;
  chatVisibility?: ChatVisibility;
  loadMixpanel?: () => Promise<MixpanelLibrary>;
  afterPaint?: AfterPaintDeps;
}

export function createThirdParties(options: ThirdPartiesOptions = {}): ThirdParties {
  const consent = options.consent ?? createConsentStore();
  const pageViews = createPageViews();
  const chatVisibility = options.chatVisibility ?? createChatVisibility();
  let started = false;
  return {
    consent,
    pageViews,
    chatVisibility,
    start(config, router) {
      // Strict mode runs effects twice in development; the page starts its third parties once.
      if (started) return;
      started = true;
      const tasks = {
        analytics: () => startAnalytics(config, { consent, pageViews, loadMixpanel: options.loadMixpanel }),
        chat: () => startChat(config.chat),
      };
      afterFirstPage(router, tasks, options.afterPaint);
    },
  };
}
