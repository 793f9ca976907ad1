/**
 * A Core Web Vital as a telemetry event: its value, the route of the page it belongs to and the
 * part (and build) that owns it. LCP: the part its element was in. INP: the remote whose scripts
 * ran longest in the interaction's long animation frames (by the public path they came from, so
 * their build too), else the part of the element interacted with. CLS: the part of its largest
 * shift's element. FCP and TTFB: the host, whose server sends the document and its frame.
 * LCP, FCP and TTFB belong to the first page; INP and CLS to the page on screen when they happened.
 */
import type {
  CLSMetricWithAttribution,
  FCPMetricWithAttribution,
  INPMetricWithAttribution,
  LCPMetricWithAttribution,
  TTFBMetricWithAttribution,
} from 'web-vitals/attribution';
import type { VitalEvent } from 'shared/telemetry';
import { HOST_PART } from 'shared/telemetry-values';
import type { PageParts } from './parts';
import type { RemoteBuilds } from './remote-builds';
import type { RouteTimeline } from './route-timeline';

export type AttributedMetric =
  | LCPMetricWithAttribution
  | INPMetricWithAttribution
  | CLSMetricWithAttribution
  | FCPMetricWithAttribution
  | TTFBMetricWithAttribution;

export interface VitalContext {
  routes: Pick<RouteTimeline, 'at'>;
  builds: Pick<RemoteBuilds, 'buildOf' | 'ownerOf'>;
  /** The host and the configured remotes: a target naming another part is the host's. */
  parts: PageParts;
  /** The part an LCP candidate was in when the browser reported it (lcp-parts.ts). */
  lcpPartOf(entry: PerformanceEntry | undefined): string | undefined;
}

/** The contract's bound on a value. */
const MAX_VALUE = 10 * 60_000;

/** The remote (and build) whose scripts ran longest in these frames. */
export function longestScriptOwner(
  frames: INPMetricWithAttribution['attribution']['longAnimationFrameEntries'],
  builds: Pick<RemoteBuilds, 'ownerOf'>,
): { remote: string; build: string } | undefined {
  const totals = new Map<string, { remote: string; build: string; ms: number }>();
  for (const frame of frames) {
    for (const script of frame.scripts ?? []) {
      const owner = builds.ownerOf(script.sourceURL);
      if (!owner) continue;
      const key = `${owner.remote} ${owner.build}`;
      const total = totals.get(key) ?? { ...owner, ms: 0 };
      total.ms += script.duration;
      totals.set(key, total);
    }
  }
  let longest: { remote: string; build: string; ms: number } | undefined;
  for (const total of totals.values()) if (!longest || total.ms > longest.ms) longest = total;
  return longest && { remote: longest.remote, build: longest.build };
}

export function vitalEvent(metric: AttributedMetric, context: VitalContext): VitalEvent {
  const { routes, builds } = context;
  const part = (target: string | undefined) => (context.parts.isPart(target) ? target : HOST_PART);
  let owner: { remote: string; build?: string } = { remote: HOST_PART };
  let time = 0;
  if (metric.name === 'LCP') {
    const { lcpEntry, target } = metric.attribution;
    owner = { remote: context.lcpPartOf(lcpEntry) ?? part(target) };
  } else if (metric.name === 'INP') {
    const { longAnimationFrameEntries, interactionTarget, interactionTime } = metric.attribution;
    owner = longestScriptOwner(longAnimationFrameEntries, builds) ?? { remote: part(interactionTarget) };
    time = interactionTime ?? 0;
  } else if (metric.name === 'CLS') {
    owner = { remote: part(metric.attribution.largestShiftTarget) };
    time = metric.attribution.largestShiftTime ?? 0;
  }
  const value = Math.min(Math.max(metric.value, 0), MAX_VALUE);
  return {
    kind: 'vital',
    name: metric.name,
    // Milliseconds to the millisecond; CLS, unitless, to four places.
    value: metric.name === 'CLS' ? Math.round(value * 10_000) / 10_000 : Math.round(value),
    route: routes.at(time),
    remote: owner.remote,
    build: owner.build ?? builds.buildOf(owner.remote),
  };
}
