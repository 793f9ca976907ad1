/**
 * Starts consent, the tag manager and Mixpanel from the runtime configuration, after the
 * first paint. Nothing reaches Mixpanel before the visitor accepts: its chunk is not even
 * loaded. Declining (now or later, in any tab) switches the facade off.
 */
import { analytics } from 'shared/analytics';
import type { RuntimeConfig } from 'shared/runtime-config';
import { consentStore, type ConsentChoice, type ConsentStore } from './consent-store';
import { connectMixpanel, importMixpanel, type MixpanelConnection, type MixpanelLibrary } from './mixpanel-sink';
import { currentRoute, forwardPageViews } from './page-views';
import { startTagManager } from './tag-manager';

export interface AnalyticsDeps {
  consent: ConsentStore;
  loadMixpanel: () => Promise<MixpanelLibrary>;
}

const browserDeps = (): AnalyticsDeps => ({ consent: consentStore, loadMixpanel: importMixpanel });

export function startAnalytics(config: RuntimeConfig, deps: AnalyticsDeps = browserDeps()): void {
  const { analytics: mixpanelConfig, tagManager: tagConfig } = config;
  // With no Mixpanel, nothing will ever take the buffered calls.
  if (!mixpanelConfig) analytics.disable();
  if (!mixpanelConfig && !tagConfig) return;

  const { consent } = deps;
  let choice = consent.getState().choice;
  const tags = tagConfig ? startTagManager(tagConfig, { granted: choice === 'granted', route: currentRoute() }) : undefined;
  if (tags) forwardPageViews(tags.pageView);

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

  const apply = (next: ConsentChoice | undefined, initial: boolean) => {
    if (next === 'granted') {
      if (!initial) tags?.grant();
      grantMixpanel();
    } else if (next === 'denied') {
      if (!initial) tags?.deny();
      analytics.disable();
      void mixpanel?.then((connection) => connection?.optOut());
    }
    // No answer yet: calls wait in the facade's buffer.
  };

  apply(choice, true);
  consent.subscribe(() => {
    const next = consent.getState().choice;
    if (next === choice) return;
    choice = next;
    apply(next, false);
  });
  consent.markRelevant();
}
