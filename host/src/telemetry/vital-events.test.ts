import type { CLSMetricWithAttribution, INPMetricWithAttribution } from 'web-vitals/attribution';
import { telemetryEventSchema } from 'shared/api/contract';
import { REMOTE_NAMES } from 'shared/remotes';
import type { VitalEvent } from 'shared/telemetry';
import { pageParts } from './parts';
import { createBuildAttribution } from './build-attribution';
import { createRouteTimeline } from './route-timeline';
import type { PaintVital } from './paint-vitals';
import {
  longestScriptOwner,
  paintVitalEvent,
  vitalEvent as eventOf,
  type AttributedMetric,
  type VitalContext,
} from './vital-events';
import { RouteTable } from '../route-table/route-table';

/** The event, checked against the API's contract. */
function checked(event: VitalEvent): VitalEvent {
  expect(telemetryEventSchema.parse(event)).toEqual(event);
  return event;
}
const vitalEvent = (metric: AttributedMetric, context: VitalContext) => checked(eventOf(metric, context));
const paintEvent = (vital: PaintVital, context: VitalContext) => checked(paintVitalEvent(vital, context));

const GIFTS_V41 = 'https://gifts.example.com/v41/';
const GIFTS_V40 = 'https://gifts.example.com/v40/';
const CONTENT = 'https://content.example.com/';

function context(): VitalContext {
  const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
  builds.record('gifts', GIFTS_V40, 'g-40', new Map());
  builds.record('gifts', GIFTS_V41, 'g-41', new Map());
  builds.record('content', CONTENT, 'c-3', new Map());
  // The visitor landed on the home page, went to the game at 5 s, then to a gift at 9 s.
  const routes = createRouteTimeline(RouteTable.registry(), '/');
  routes.record('/game', 5_000);
  routes.record('/gifts/Zx9_-aBcDeFgHiJkLmNoPqRs', 9_000);
  return { routes, builds, parts: pageParts(REMOTE_NAMES) };
}

const inp = (value: number, attribution: Partial<INPMetricWithAttribution['attribution']>) =>
  ({ name: 'INP', value, attribution: { longAnimationFrameEntries: [], ...attribution } }) as INPMetricWithAttribution;

const frame = (...scripts: [string, number][]) =>
  ({
    scripts: scripts.map(([sourceURL, duration]) => ({ sourceURL, duration })),
  }) as unknown as INPMetricWithAttribution['attribution']['longAnimationFrameEntries'][number];

describe('the part a node belongs to', () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <header><a id="home">Home</a></header>
      <main><div data-part="gifts"><h1 id="title">Play</h1><p id="text">Pick a box</p></div></main>
      <div data-part="not-a-remote"><p id="odd">?</p></div>`;
  });

  it('is the remote whose part holds it, a text node too', () => {
    expect(pageParts(REMOTE_NAMES).partOf(document.getElementById('title'))).toBe('gifts');
    expect(pageParts(REMOTE_NAMES).partOf(document.getElementById('text')?.firstChild)).toBe('gifts');
  });

  it('is the host outside every part, for a name no remote has, and for no node at all', () => {
    expect(pageParts(REMOTE_NAMES).partOf(document.getElementById('home'))).toBe('host');
    expect(pageParts(REMOTE_NAMES).partOf(document.getElementById('odd'))).toBe('host');
    expect(pageParts(REMOTE_NAMES).partOf(null)).toBe('host');
  });
});

describe('LCP', () => {
  it("is the part it was read in, with that part's build, on the first page's route", () => {
    expect(paintEvent({ name: 'LCP', value: 812.4, part: 'content' }, context())).toEqual({
      kind: 'vital',
      name: 'LCP',
      value: 812,
      route: '/',
      remote: 'content',
      build: 'c-3',
    });
    expect(paintEvent({ name: 'LCP', value: 1_200, part: 'gifts' }, context())).toMatchObject({ build: 'g-41' });
  });
});

describe('INP', () => {
  it("is the remote whose scripts ran longest, and the build they came from, on the interaction's page", () => {
    const metric = inp(240, {
      interactionTime: 6_500,
      interactionTarget: 'host',
      longAnimationFrameEntries: [
        frame([`${GIFTS_V40}7.js`, 50], ['https://host.example.com/main.1a2b.js', 300]),
        frame([`${CONTENT}3.js`, 60], [`${GIFTS_V40}8.js`, 30]),
      ],
    });
    expect(vitalEvent(metric, context())).toEqual({
      kind: 'vital',
      name: 'INP',
      value: 240,
      route: '/game',
      remote: 'gifts',
      build: 'g-40',
    });
  });

  it('is the part of the element interacted with when no remote script ran', () => {
    const metric = inp(96, {
      interactionTime: 9_500,
      interactionTarget: 'gifts',
      longAnimationFrameEntries: [frame(['https://host.example.com/main.1a2b.js', 80])],
    });
    expect(vitalEvent(metric, context())).toMatchObject({ route: '/gifts/:giftId', remote: 'gifts', build: 'g-41' });
  });

  it("longestScriptOwner tells a remote's builds apart by public path", () => {
    const { builds } = context();
    const frames = [frame([`${GIFTS_V41}1.js`, 20], [`${GIFTS_V40}1.js`, 15], [`${GIFTS_V40}2.js`, 10])];
    expect(longestScriptOwner(frames, builds)).toEqual({ remote: 'gifts', build: 'g-40' });
    expect(longestScriptOwner([], builds)).toBeUndefined();
  });
});

describe('CLS, FCP and TTFB', () => {
  it("CLS is its largest shift's part, on the page it happened, unitless", () => {
    const metric = {
      name: 'CLS',
      value: 0.123456,
      attribution: { largestShiftTarget: 'content', largestShiftTime: 1_500 },
    } as CLSMetricWithAttribution;
    expect(vitalEvent(metric, context())).toEqual({
      kind: 'vital',
      name: 'CLS',
      value: 0.1235,
      route: '/',
      remote: 'content',
      build: 'c-3',
    });
  });

  it("FCP and TTFB are the host's, on the first page", () => {
    expect(paintEvent({ name: 'FCP', value: 420.6, part: 'host' }, context())).toEqual({
      kind: 'vital',
      name: 'FCP',
      value: 421,
      route: '/',
      remote: 'host',
      build: 'host-b7',
    });
    expect(paintEvent({ name: 'TTFB', value: 95, part: 'host' }, context())).toMatchObject({
      remote: 'host',
      route: '/',
    });
  });

  it('stay within what the API takes', () => {
    expect(paintEvent({ name: 'TTFB', value: 11 * 60_000, part: 'host' }, context()).value).toBe(10 * 60_000);
    const wild = { name: 'CLS', value: -3, attribution: {} } as CLSMetricWithAttribution;
    expect(vitalEvent(wild, context()).value).toBe(0);
  });
});
