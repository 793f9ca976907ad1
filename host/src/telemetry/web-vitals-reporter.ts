/**
 * INP and CLS, from Google's web-vitals library with its attribution, as telemetry events. Loaded
 * after the first content (start-telemetry.ts), in a chunk of its own: none of it is in the host's
 * first scripts. LCP, FCP and TTFB are read from the start by the first script (paint-vitals.ts).
 */
import { onCLS, onINP } from 'web-vitals/attribution';
import type { VitalEvent } from 'shared/telemetry';
import { vitalEvent, type AttributedMetric, type VitalContext } from './vital-events';

export function reportWebVitals(context: VitalContext, record: (event: VitalEvent) => void): void {
  const report = (metric: AttributedMetric) => record(vitalEvent(metric, context));
  // The element a metric names, as the part of the page it is in, taken while it is in the page.
  const options = { generateTarget: (node: Node | null) => context.parts.partOf(node) };
  onINP(report, options);
  onCLS(report, options);
}
