/**
 * Interaction to next paint, from Event Timing entries (the probe keeps those of 16 ms and more
 * that belong to an interaction), as web-vitals reduces them: an interaction's latency is the
 * longest duration among its entries (pointerdown, pointerup, click, keydown… share its
 * interactionId), and a page with fewer than 50 interactions reports its slowest one.
 */
import type { EventTimingEntry } from './probe';

/** Each interaction's latency, by interactionId. */
export function interactionLatencies(entries: readonly EventTimingEntry[]): Map<number, number> {
  const latencies = new Map<number, number>();
  for (const { interactionId, duration } of entries) {
    if (interactionId <= 0) continue;
    latencies.set(interactionId, Math.max(latencies.get(interactionId) ?? 0, duration));
  }
  return latencies;
}

/** The slowest interaction's latency; NaN when no entry of an interaction was seen. */
export function interactionToNextPaint(entries: readonly EventTimingEntry[]): number {
  const latencies = [...interactionLatencies(entries).values()];
  return latencies.length === 0 ? Number.NaN : Math.max(...latencies);
}
