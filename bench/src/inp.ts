/**
 * Interaction to next paint as web-vitals reduces Event Timing entries: an interaction's longest
 * entry, and the slowest interaction of a page with fewer than 50.
 */
import type { EventTimingEntry } from './probe';

export function interactionLatencies(entries: readonly EventTimingEntry[]): Map<number, number> {
  const latencies = new Map<number, number>();
  for (const { interactionId, duration } of entries) {
    if (interactionId <= 0) continue;
    latencies.set(interactionId, Math.max(latencies.get(interactionId) ?? 0, duration));
  }
  return latencies;
}

export function interactionToNextPaint(entries: readonly EventTimingEntry[]): number {
  const latencies = [...interactionLatencies(entries).values()];
  return latencies.length === 0 ? Number.NaN : Math.max(...latencies);
}
