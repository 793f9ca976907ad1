/**
 * Starts the optional third parties (consent and analytics, tag manager, live chat) once the
 * first page has been painted (after-first-paint.ts). Each is off unless the runtime
 * configuration names it, and none can stop the application: a failure is logged.
 */
import { useEffect } from 'react';
import type { RuntimeConfig } from 'shared/runtime-config';
import { afterFirstPage, type RouterLike } from './after-first-paint';
import { startAnalytics } from './analytics/start-analytics';
import { startChat } from './chat/start-chat';

let started = false;

export function ThirdPartyStarter({ config, router }: { config: RuntimeConfig; router: RouterLike }) {
  useEffect(() => {
    // Strict mode runs effects twice in development; the page starts its third parties once.
    if (started) return;
    started = true;
    afterFirstPage(router, {
      analytics: () => startAnalytics(config),
      chat: () => startChat(config.chat),
    });
  }, [config, router]);
  return null;
}
