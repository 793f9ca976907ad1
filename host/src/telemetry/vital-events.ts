/**
 * A Core Web Vital as a telemetry event, with the part (and build) that owns it: for INP the
 * remote whose scripts ran longest in its long animation frames, else its element's part.
 */
import type { CLSMetricWithAttribution, INPMetricWithAttribution } from 'web-vitals/attribution';
import type { VitalEvent } from 'shared/telemetry';
import { HOST_PART } from 'shared/telemetry-values';
import type { PaintVital } from './paint-vitals';
import type { PageParts } from './parts';
import type { BuildAttribution } from './build-attribution';
import type { RouteTimeline } from './route-timeline';

export type AttributedMetric = INPMetricWithAttribution | CLSMetricWithAttribution;

export interface VitalContext {
  routes: Pick<RouteTimeline, 'at'>;
  builds: Pick<BuildAttribution, 'buildOf' | 'ownerOf'>;
  /** The host and the configured remotes: a target naming another part is the host's. */
  parts: PageParts;
}

const MAX_VALUE = 10 * 60_000;

/** The remote (and build) whose scripts ran longest in these frames. */
export function longestScriptOwner(
  frames: INPMetricWithAttribution['attribution']['longAnimationFrameEntries'],
  builds: Pick<BuildAttribution, 'ownerOf'>,
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

function eventOf(
  name: VitalEvent['name'],
  value: number,
  route: string,
  owner: { remote: string; build?: string },
  builds: VitalContext['builds'],
): VitalEvent {
  const bounded = Math.min(Math.max(value, 0), MAX_VALUE);
  return {
    kind: 'vital',
    name,
    // Milliseconds to the millisecond; CLS, unitless, to four places.
    value: name === 'CLS' ? Math.round(bounded * 10_000) / 10_000 : Math.round(bounded),
    route,
    remote: owner.remote,
    build: owner.build ?? builds.buildOf(owner.remote),
  };
}

export function vitalEvent(metric: AttributedMetric, { routes, builds, parts }: VitalContext): VitalEvent {
  const part = (target: string | undefined) => (parts.isPart(target) ? target : HOST_PART);
  if (metric.name === 'INP') {
    const { longAnimationFrameEntries, interactionTarget, interactionTime } = metric.attribution;
    const owner = longestScriptOwner(longAnimationFrameEntries, builds) ?? { remote: part(interactionTarget) };
    return eventOf(metric.name, metric.value, routes.at(interactionTime ?? 0), owner, builds);
  }
  const { largestShiftTarget, largestShiftTime } = metric.attribution;
  return eventOf(
    metric.name,
    metric.value,
    routes.at(largestShiftTime ?? 0),
    { remote: part(largestShiftTarget) },
    builds,
  );
}

/** A vital read from the timeline, on the first page. */
export function paintVitalEvent({ name, value, part }: PaintVital, { routes, builds }: VitalContext): VitalEvent {
  return eventOf(name, value, routes.at(0), { remote: part }, builds);
}
