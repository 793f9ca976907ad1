/**
 * The one analytics API for every part (a federation singleton): the host decides what is sent, if
 * anything; calls wait in a small buffer until it connects a sink.
 */
import type { GiftStatus } from '../../api/contract';
import { personalDataIn } from './personal-data';

/** Closed properties: no email, code or bearer id (docs/decisions/0007-analytics-and-consent.md). */
export type ProductEvent =
  | { name: 'Game Played'; properties: { outcome: 'win'; prizeId: string } | { outcome: 'lose'; soldOut: boolean } }
  | { name: 'Gift Viewed'; properties: { prizeId: string; status: GiftStatus } }
  | { name: 'Redeem Started'; properties: { prizeId: string } }
  | { name: 'Redeem Completed'; properties: { prizeId: string } };

export interface PageView {
  route: string;
}

export type AnalyticsHit =
  { type: 'event'; event: ProductEvent; at: number } | { type: 'page'; view: PageView; at: number };

export type AnalyticsSink = (hit: AnalyticsHit) => void;

export interface Analytics {
  track(event: ProductEvent): void;
  pageView(view: PageView): void;
  connect(sink: AnalyticsSink): () => void;
  disable(): void;
}

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
