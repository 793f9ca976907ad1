/**
 * The one analytics API for the host and every remote (a federation singleton, so one buffer
 * and one sink for the page). Parts report typed product events and the host reports page
 * views; which library sends them, and whether anything is sent at all (configuration,
 * consent), is the host's business. Until the host connects a sink, calls wait in a small
 * buffer, so a remote running standalone just fills it harmlessly.
 */
import type { GiftStatus } from '../../api/contract';
import { personalDataIn } from './personal-data';

/**
 * The product events. Properties are closed on purpose: no email, no voucher code, and no gift
 * or redeem id (bearer links, see docs/decisions/0007). A prize id is catalogue data.
 */
export type ProductEvent =
  | { name: 'Game Played'; properties: { outcome: 'win'; prizeId: string } | { outcome: 'lose'; soldOut: boolean } }
  | { name: 'Gift Viewed'; properties: { prizeId: string; status: GiftStatus } }
  | { name: 'Redeem Started'; properties: { prizeId: string } }
  | { name: 'Redeem Completed'; properties: { prizeId: string } };

/** A page view names the route pattern (`/gifts/:giftId`), never the address shown. */
export interface PageView {
  route: string;
}

/** What a sink receives; `at` is when the call was made (ms since the epoch), not when it was sent. */
export type AnalyticsHit =
  { type: 'event'; event: ProductEvent; at: number } | { type: 'page'; view: PageView; at: number };

export type AnalyticsSink = (hit: AnalyticsHit) => void;

export interface Analytics {
  track(event: ProductEvent): void;
  pageView(view: PageView): void;
  /** Sends what was buffered, then every further call, to `sink`. Gives a function that disconnects it. */
  connect(sink: AnalyticsSink): () => void;
  /** Analytics are off (not configured, or consent declined): drops the buffer and ignores calls until the next connect. */
  disable(): void;
}

/** Calls kept while no sink is connected; the oldest go first. */
export const BUFFER_LIMIT = 100;

export function createAnalytics(now: () => number = Date.now): Analytics {
  let sink: AnalyticsSink | undefined;
  let disabled = false;
  let buffer: AnalyticsHit[] = [];

  const deliver = (to: AnalyticsSink, hit: AnalyticsHit) => {
    try {
      to(hit);
    } catch (error) {
      console.warn('[analytics] a hit could not be sent', error);
    }
  };

  const record = (hit: AnalyticsHit) => {
    if (disabled) return;
    const values =
      hit.type === 'page' ? [hit.view.route] : Object.values(hit.event.properties).filter((v) => typeof v === 'string');
    const refused = values.map(personalDataIn).find(Boolean);
    if (refused) {
      console.warn(
        `[analytics] not sent: ${hit.type === 'page' ? 'the page view' : `"${hit.event.name}"`} holds ${refused}`,
      );
      return;
    }
    if (sink) {
      deliver(sink, hit);
      return;
    }
    buffer.push(hit);
    if (buffer.length > BUFFER_LIMIT) buffer.shift();
  };

  return {
    track: (event) => record({ type: 'event', event, at: now() }),
    pageView: (view) => record({ type: 'page', view, at: now() }),
    connect(next) {
      disabled = false;
      sink = next;
      const waiting = buffer;
      buffer = [];
      for (const hit of waiting) deliver(next, hit);
      return () => {
        if (sink === next) sink = undefined;
      };
    },
    disable() {
      disabled = true;
      sink = undefined;
      buffer = [];
    },
  };
}

export const analytics: Analytics = createAnalytics();
