/**
 * How many series telemetry can make in one API process: with as many remotes as a configuration
 * may compose, publishing more routes than the API learns, every combination of values the
 * contract accepts, sent through both telemetry routes, then 5,000 error pages of made-up values
 * from one client, leave at most the series shared/telemetry-bounds computes (with the gauges of
 * every part's running canary), which is what docs/operations.md states (its table is checked
 * against the same figures).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Registry } from 'prom-client';
import { signTicket, type TicketBuild } from 'server/page-ticket';
import { MAX_REMOTES } from 'shared/composition';
import { REMOTE_NAMES } from 'shared/remotes';
import {
  CSP_BLOCKED_KEYWORDS,
  CSP_DIRECTIVES,
  HOST_PART,
  LOAD_OUTCOMES,
  LOAD_PHASES,
  METRIC,
  OTHER,
  PARTS,
  ROUTE_OWNERS,
  ROUTE_PATTERNS,
  type TelemetryEvent,
  TELEMETRY_MAX_EVENTS,
  VITAL_NAMES,
} from 'shared/telemetry';
import {
  CANARY_GAUGE_BOUND,
  CANARY_GAUGE_NAMES,
  CANARY_GAUGE_SERIES,
  deploymentSeriesOf,
  labelCapOf,
  labelSetsOf,
  TELEMETRY_BOUNDS,
  TELEMETRY_DEPLOYMENT_SERIES,
  TELEMETRY_WORST_CASE_SERIES,
  worstCaseSeriesOf,
} from 'shared/telemetry-bounds';
import { MAX_LEARNED_ROUTES, ROUTE_PART_PAIRS } from 'shared/telemetry-labels';
import { type App } from '../src/app-context';
import { harnessFor } from './support/harness';
import { startPartsServer, type PartsServer } from './support/parts-server';
import { DEFAULT_IP } from './support/test-app';
import { type TestClock } from './support/test-clock';
import { HIGH_LIMITS, TEST_TICKET_SECRET } from './support/test-config';

type Key = keyof typeof METRIC;
const KEYS = Object.keys(METRIC) as Key[];
const OPERATIONS = resolve(__dirname, '../../docs/operations.md');
const harness = harnessFor('postgres');
const API_ORIGIN = 'http://localhost:3004';

let app: App;
let metrics: Registry;
let parts: PartsServer;
let clock: TestClock;

/** The remotes added to the registry's, as many as a configuration may compose. */
const ADDED = Array.from({ length: MAX_REMOTES - REMOTE_NAMES.length }, (_, n) => `extra${n + 1}`);
const ALL_PARTS: string[] = [...PARTS, ...ADDED];
/** What each added remote publishes and is granted: two routes each, more than the API learns. */
const addedRoutes = (remote: string) => [`/${remote}`, `/${remote}/more`];
/** The routes learned: the added remotes' first ones, in the order they are configured, up to the cap. */
const LEARNED = ADDED.flatMap((remote) => addedRoutes(remote).map((path) => [path, remote] as const)).slice(
  0,
  MAX_LEARNED_ROUTES,
);

beforeEach(async () => {
  parts = await startPartsServer(ADDED);
  for (const part of ALL_PARTS)
    parts.publish(part, `${part}-current`, undefined, {
      previous: `${part}-previous`,
      canary: { id: `${part}-canary`, percent: 10, since: 1, judgedAt: 2 },
    });
  for (const remote of ADDED) {
    const routes = addedRoutes(remote).map((path) => ({ path, layout: 'default', title: remote }));
    const manifest = { routes: { version: 1, remote, exposes: { Page: { routes } } } };
    parts.publishManifest(remote, manifest);
    parts.publishManifest(remote, manifest, `${remote}-canary`);
  }
  ({ app, metrics, clock } = await harness.start({
    apiOrigin: API_ORIGIN,
    builds: {
      sources: parts.sources,
      manifests: parts.manifests,
      grants: Object.fromEntries(ADDED.map((remote) => [remote, addedRoutes(remote)])),
      pollMs: 60_000,
    },
    // A batch for each page's load: more than a browser sends, from one address.
    limits: { ...HIGH_LIMITS, telemetryBatchesPerIpPerMinute: 100_000 },
  }));
});
afterEach(async () => {
  await parts.close();
});

/** Every kind of build a page can name for `part`: its deployment's three, none, another part's, made up. */
const buildsOf = (part: string) => [
  `${part}-current`,
  `${part}-canary`,
  `${part}-previous`,
  'unknown',
  `${part === 'host' ? 'gifts' : 'host'}-current`,
  'made-up',
];
/** A route and a remote the API was built without: labelled `other`, within the bound. */
const NEW_ROUTE = '/news';
const NEW_REMOTE = 'news';
const ROUTES = [...ROUTE_PATTERNS, ...ADDED.flatMap(addedRoutes), NEW_ROUTE];
/** Each status kept as itself, and several of each class. */
const STATUSES = [400, 404, 410, 418, 429, 499, 500, 501, 503, 504, 599];
const DIRECTIVES = [...CSP_DIRECTIVES, 'made-up-src'];

function blockedValues(): string[] {
  const partsOrigin = new URL(parts.sources.host as string).origin;
  return [
    `${partsOrigin}/remoteEntry.js`,
    `${API_ORIGIN}/api/gifts`,
    ...CSP_BLOCKED_KEYWORDS,
    'https://evil.example/steal.js',
    'https://other.example',
    'data:',
    'not-a-url',
  ];
}

function everyPageEvent(): TelemetryEvent[] {
  const events: TelemetryEvent[] = [];
  for (const remote of [...REMOTE_NAMES, ...ADDED, NEW_REMOTE]) {
    for (const build of buildsOf(remote)) {
      for (const phase of LOAD_PHASES)
        for (const outcome of LOAD_OUTCOMES) events.push({ kind: 'load', remote, build, phase, outcome, ms: 120 });
      for (const to of buildsOf(remote)) events.push({ kind: 'fallback', remote, from: build, to });
    }
  }
  for (const route of ROUTES)
    for (const part of [...ALL_PARTS, NEW_REMOTE]) {
      for (const build of buildsOf(part)) {
        events.push({ kind: 'reload', route, remote: part, build });
        for (const name of VITAL_NAMES) events.push({ kind: 'vital', name, value: 1, route, remote: part, build });
        for (const status of STATUSES) events.push({ kind: 'error-page', route, status, remote: part, build });
      }
      for (const status of STATUSES) events.push({ kind: 'error-page', route, status, remote: part });
    }
  for (const route of ROUTES)
    for (const directive of DIRECTIVES)
      for (const blocked of blockedValues()) events.push({ kind: 'csp', route, directive, blocked });
  return events;
}

/** 5,000 error pages, each of a build id no deploy made, from every route, part and status. */
function madeUpErrorPages(): TelemetryEvent[] {
  return Array.from({ length: 5_000 }, (_, n) => ({
    kind: 'error-page',
    route: ROUTES[n % ROUTES.length] as string,
    status: STATUSES[n % STATUSES.length] as number,
    remote: ALL_PARTS[n % ALL_PARTS.length] as string,
    build: `made-up-${n}`,
  }));
}

/** The part and builds a page's ticket must name for the API to label `event` with its build. */
function ticketBuildsOf(event: TelemetryEvent): Record<string, TicketBuild> {
  switch (event.kind) {
    case 'load':
    case 'reload':
    case 'vital':
    case 'error-page':
      return event.remote === 'host' ? {} : { [event.remote]: { id: event.build ?? 'unknown', channel: 'stable' } };
    case 'fallback':
      return { [event.remote]: { id: event.from, channel: 'canary', fallback: event.to } };
    default:
      return {};
  }
}

/**
 * The events in batches, each with a ticket naming the builds its events name (a page's load of
 * a remote alone, as a page's ticket vouches for one), sent at once: batches naming builds the
 * API does not know wait for one read of the part's deployment, which batches arriving meanwhile
 * share.
 */
async function sendBatches(events: TelemetryEvent[]): Promise<void> {
  const groups = new Map<string, TelemetryEvent[]>();
  for (const event of events) {
    const key = JSON.stringify(ticketBuildsOf(event));
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  const chunks = (of: TelemetryEvent[], size: number) =>
    Array.from({ length: Math.ceil(of.length / size) }, (_, n) => of.slice(n * size, (n + 1) * size));
  const batches = [...groups].flatMap(([key, grouped]) => {
    const loads = grouped.filter((event) => event.kind === 'load');
    const rest = grouped.filter((event) => event.kind !== 'load');
    return [...chunks(loads, 1), ...chunks(rest, TELEMETRY_MAX_EVENTS)].map((batch) => ({
      events: batch,
      ticket: signTicket(
        TEST_TICKET_SECRET,
        JSON.parse(key) as Record<string, TicketBuild>,
        clock.now().getTime() / 1000,
      ),
    }));
  });
  const statuses = await Promise.all(
    batches.map(async ({ events: batch, ticket }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/telemetry',
        payload: JSON.stringify({ host: 'host-current', ticket, events: batch }),
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'same-site' },
        remoteAddress: DEFAULT_IP,
      });
      return response.statusCode;
    }),
  );
  expect(new Set(statuses)).toEqual(new Set([204]));
}

/** A page's address on `route`, as a browser's own CSP report gives it. */
const pageOf = (route: string) =>
  route === '*' ? 'http://localhost:3000/no/such/page' : `http://localhost:3000${route.replace(/:\w+/g, 'AbCd')}`;

/** Every route, directive and blocked value, as the browsers' own reports, a post of 30 at most. */
async function sendReports(): Promise<void> {
  const reports = ROUTES.flatMap((route) =>
    DIRECTIVES.flatMap((directive) =>
      blockedValues().map((blocked) => ({
        type: 'csp-violation',
        body: { documentURL: pageOf(route), blockedURL: blocked, effectiveDirective: directive },
      })),
    ),
  );
  for (let start = 0; start < reports.length; start += 30) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/telemetry/csp',
      payload: JSON.stringify(reports.slice(start, start + 30)),
      headers: { 'content-type': 'application/reports+json' },
      remoteAddress: DEFAULT_IP,
    });
    expect(response.statusCode).toBe(204);
  }
}

/** Each telemetry metric's series in the exposition, a histogram's buckets, sum and count included. */
async function seriesCounts(): Promise<Record<Key, number>> {
  const names = new Map<string, Key>(KEYS.map((key) => [METRIC[key], key]));
  const counts = Object.fromEntries(KEYS.map((key) => [key, 0])) as Record<Key, number>;
  for (const line of (await metrics.metrics()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[a-z_]+/.exec(line)?.[0] ?? '';
    const key = names.get(name) ?? names.get(name.replace(/_(bucket|sum|count)$/, ''));
    if (key) counts[key] += 1;
  }
  return counts;
}

/** The canary gauges' series in the exposition. */
async function canaryGaugeSeries(): Promise<number> {
  const names = Object.values(CANARY_GAUGE_NAMES) as string[];
  return (await metrics.metrics())
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#') && names.includes(/^[a-z_]+/.exec(line)?.[0] ?? '')).length;
}

/** The distinct (route, remote) pairs of the error pages' series. */
async function routePartPairs(): Promise<Set<string>> {
  const pairs = new Set<string>();
  for (const line of (await metrics.metrics()).split('\n')) {
    if (!line.startsWith(`${METRIC.errorPages}{`)) continue;
    const route = /route="([^"]*)"/.exec(line)?.[1];
    const remote = /remote="([^"]*)"/.exec(line)?.[1];
    pairs.add(`${route} ${remote}`);
  }
  return pairs;
}

/**
 * The pairs the registry and the learned routes give: the host on each route and `other`, a
 * remote on its own and `other`, `other` on `other`.
 */
function knownPairs(): Set<string> {
  const owners = [...ROUTE_OWNERS, ...LEARNED];
  return new Set([
    ...[...owners.map(([route]) => route), OTHER].map((route) => `${route} ${HOST_PART}`),
    ...owners.filter(([, owner]) => owner !== HOST_PART).map(([route, owner]) => `${route} ${owner}`),
    ...[...REMOTE_NAMES, ...ADDED, OTHER].map((remote) => `${OTHER} ${remote}`),
  ]);
}

it(`holds at most ${TELEMETRY_DEPLOYMENT_SERIES} telemetry series with ${MAX_REMOTES} remotes after every combination the contract accepts and 5,000 made-up error pages`, async () => {
  await sendBatches(everyPageEvent());
  await sendReports();
  const afterEvery = await seriesCounts();
  await sendBatches(madeUpErrorPages());
  const counts = await seriesCounts();

  // The made-up values add no series: each is `other`, already counted.
  expect(counts).toEqual(afterEvery);
  for (const key of KEYS) expect(counts[key]).toBeLessThanOrEqual(deploymentSeriesOf(key));
  // Every part runs a canary, judged: each canary gauge has its every series.
  const canarySeries = await canaryGaugeSeries();
  expect(canarySeries).toBe(CANARY_GAUGE_SERIES);
  const total = KEYS.reduce((sum, key) => sum + counts[key], canarySeries);
  expect(total).toBeLessThanOrEqual(TELEMETRY_DEPLOYMENT_SERIES);
  expect(TELEMETRY_DEPLOYMENT_SERIES).toBeLessThanOrEqual(TELEMETRY_WORST_CASE_SERIES);
  // Every (route, remote) pair the registry and the learned routes give was made, and no other (a
  // route past the cap is `other`; a made-up remote's events are `other` on `other`, with the
  // build `other`, so not every label set is made).
  const pairs = await routePartPairs();
  expect(pairs).toEqual(knownPairs());
  expect(pairs.size).toBe(ROUTE_PART_PAIRS);
});

const figure = (value: number) => value.toLocaleString('en-US');

it('is the figure docs/operations.md states, metric by metric', () => {
  const doc = readFileSync(OPERATIONS, 'utf8');
  expect(doc).toContain(`one API process holds at most **${figure(TELEMETRY_WORST_CASE_SERIES)} telemetry series**`);
  const rows = new Map(
    doc
      .split('\n')
      .filter((line) => /^\| `giftbox_/.test(line) || line.startsWith('| **Total**'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      )
      .map((cells) => [cells[0] ?? '', cells.slice(1)]),
  );
  for (const key of KEYS) {
    const bound = TELEMETRY_BOUNDS[key];
    const product = bound.factors.map(({ label, values }) => `${values} ${label}`).join(' × ');
    expect([METRIC[key], rows.get(`\`${METRIC[key]}\``)]).toEqual([
      METRIC[key],
      [
        `${product} = ${figure(labelSetsOf(bound))}`,
        String(bound.seriesPerSet),
        figure(deploymentSeriesOf(key)),
        figure(labelCapOf(key)),
        figure(worstCaseSeriesOf(key)),
      ],
    ]);
  }
  const sets = figure(labelSetsOf(CANARY_GAUGE_BOUND));
  for (const name of Object.values(CANARY_GAUGE_NAMES))
    expect([name, rows.get(`\`${name}\``)]).toEqual([
      name,
      [
        `${CANARY_GAUGE_BOUND.factors.map(({ label, values }) => `${values} ${label}`).join(' × ')} = ${sets}`,
        '1',
        sets,
        sets,
        sets,
      ],
    ]);
  expect(rows.get('**Total**')).toEqual([
    '',
    '',
    figure(TELEMETRY_DEPLOYMENT_SERIES),
    '',
    `**${figure(TELEMETRY_WORST_CASE_SERIES)}**`,
  ]);
});
