/** The host's optional third parties, started after the first page; none can stop the app. */
import { analytics } from 'shared/browser/analytics';
import { chat } from 'shared/browser/chat';
import type { RuntimeConfig } from 'shared/runtime-config';
import { afterFirstPage, type AfterPaintDeps, type RouterLike } from './after-first-paint';
import { createConsentStore, type ConsentStore } from './analytics/consent-store';
import type { MixpanelLibrary } from './analytics/mixpanel-sink';
import { createPageViews, type PageViews } from './analytics/page-views';
import { createChatVisibility, type ChatVisibility } from './chat/chat-visibility';
import type * as Later from './later';
import { RouteTable } from '../route-table/route-table';

type LaterParts = typeof Later;

function loadLaterParts(): Promise<LaterParts> {
  return import(/* webpackChunkName: "third-parties" */ './later');
}

export interface ThirdParties {
  /** The banner, the footer's "Cookie settings" and the analytics start-up share it. */
  readonly consent: ConsentStore;
  readonly pageViews: PageViews;
  readonly chatVisibility: ChatVisibility;
  /** Once; resolves when they have started or failed (logged). */
  start(config: RuntimeConfig, router: RouterLike): Promise<void>;
}

export interface ThirdPartiesOptions {
  routes?: RouteTable;
  consent?: ConsentStore;
  chatVisibility?: ChatVisibility;
  loadMixpanel?: () => Promise<MixpanelLibrary>;
  afterPaint?: AfterPaintDeps;
  loadLater?: () => Promise<LaterParts>;
}

function runLogged(name: string, task: () => void): void {
  try {
    task();
  } catch (error) {
    console.error(`${name} could not start`, error);
  }
}

export function createThirdParties(options: ThirdPartiesOptions = {}): ThirdParties {
  const consent = options.consent ?? createConsentStore();
  const pageViews = createPageViews(options.routes ?? new RouteTable([]));
  const chatVisibility = options.chatVisibility ?? createChatVisibility();
  let started: Promise<void> | undefined;
  const startAll = async (config: RuntimeConfig): Promise<void> => {
    // None configured: nothing to fetch, and every call to either facade is dropped from now on.
    if (!config.analytics && !config.tagManager && !config.chat) {
      analytics.disable();
      chat.disable();
      return;
    }
    let later: LaterParts;
    try {
      later = await (options.loadLater ?? loadLaterParts)();
    } catch (error) {
      // Their code could not be fetched (the visitor went offline): both stay off for this page.
      console.error('analytics and chat could not start', error);
      analytics.disable();
      chat.disable();
      return;
    }
    runLogged('analytics', () =>
      later.startAnalytics(config, { consent, pageViews, loadMixpanel: options.loadMixpanel }),
    );
    runLogged('chat', () => later.startChat(config.chat));
  };
  return {
    consent,
    pageViews,
    chatVisibility,
    start(config, router) {
      // Strict mode runs effects twice in development; the page starts its third parties once.
      started ??= new Promise<void>((resolve) => {
        afterFirstPage(router, { 'third parties': () => resolve(startAll(config)) }, options.afterPaint);
      });
      return started;
    },
  };
}
