/**
 * Starts consent, the tag manager and Mixpanel from the runtime configuration, after the
 * first paint. Nothing reaches Mixpanel before the visitor accepts: its chunk is not even
 * loaded. Declining (now or later, in any tab) switches the facade off.
 */
import { analytics } from 'shared/browser/analytics';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { ConsentStore } from './consent-store';
import { connectMixpanel, type MixpanelConnection, type MixpanelLibrary } from './mixpanel-sink';
import type { PageViews } from './page-views';
import { clearGoogleCookies, startTagManager, type TagManager } from './tag-manager';

export interface AnalyticsDeps {
  consent: ConsentStore;
  pageViews: Pick<PageViews, 'current' | 'forward'>;
  loadMixpanel?: () => Promise<MixpanelLibrary>;
}

export function startAnalytics(config: RuntimeConfig, deps: AnalyticsDeps): void {
  const { analytics: mixpanelConfig, tagManager: tagConfig } = config;
  // With no Mixpanel, nothing will ever take the buffered calls.
  if (!mixpanelConfig) analytics.disable();
  if (!mixpanelConfig && !tagConfig) return;

  const { consent, pageViews } = deps;
  let choice = consent.getState().choice;

  let tags: TagManager | undefined;
  // A visitor who declined gets no tag at all, not even consent mode's cookieless pings.
  const startTags = (granted: boolean) => {
    if (!tagConfig || tags) return;
    tags = startTagManager(tagConfig, { granted, route: pageViews.current() });
    pageViews.forward(tags.pageView);
  };

  let mixpanel: Promise<MixpanelConnection | undefined> | undefined;
  const grantMixpanel = () => {
    if (!mixpanelConfig) return;
    mixpanel ??= connectMixpanel(mixpanelConfig, deps.loadMixpanel);
    void mixpanel.then((connection) => {
      // The visitor may have declined while the library loaded.
      if (consent.getState().choice !== 'granted') return;
      if (!connection) {
        analytics.disable();
        return;
      }
      connection.optIn();
      analytics.connect(connection.sink);
    });
  };

  const withdraw = () => {
    tags?.deny();
    clearGoogleCookies();
    analytics.disable();
    void mixpanel?.then((connection) => connection?.optOut());
  };

  if (choice !== 'denied') startTags(choice === 'granted');
  if (choice === 'granted') grantMixpanel();
  // Denied: nothing starts. No answer yet: calls wait in the facade's buffer.
  if (choice === 'denied') analytics.disable();

  consent.subscribe(() => {
    const next = consent.getState().choice;
    if (next === choice) return;
    const previous = choice;
    choice = next;
    if (next === 'granted') {
      if (tags) tags.grant();
      else startTags(true);
      grantMixpanel();
    } else if (next === 'denied' || previous === 'granted') {
      // Declined, or the choice was cleared (in another tab): consent no longer holds.
      withdraw();
    }
  });
  consent.markRelevant();
}
