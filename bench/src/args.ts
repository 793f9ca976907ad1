/**
 * The bench's command line: `npm run bench -- [--runs N] [--quick] [--no-build] [--lighthouse]
 * [--routes A,B]`, or `npm run bench -- --check` (CI's smoke run).
 */

import { readCommandLine, refuse, type CommandLine } from '../../deploy/command-line';
import { ROUTES } from './routes';

const ROUTE_LABELS = ROUTES.map((route) => route.label);

export interface BenchOptions {
  /** Cold loads per route and build, interleaved federated/monolith. */
  runs: number;
  /** Warm-navigation runs per build. */
  warmRuns: number;
  /** Skip `npm run build` at the root and serve the packages' current dist folders. */
  build: boolean;
  lighthouse: boolean;
  /** Lighthouse runs per page and build (the median score is printed). */
  lighthouseRuns: number;
  /** The routes to load cold, by label (`/game`); all of them when empty. */
  routes: string[];
  /**
   * CI's smoke run: does the bench still measure? The current builds (no npm run build), one
   * cold load of CHECK_ROUTE per build, one warm navigation, one of each interaction, a short
   * throughput run, no Lighthouse.
   */
  check: boolean;
}

/** The route --check loads: the federated page loads a remote and its data (an API call). */
export const CHECK_ROUTE = '/redeem/{id}';

export const USAGE = `Usage: npm run bench -- [options]

  --runs N             cold loads per route and build, interleaved (default 5)
  --warm-runs N        warm navigations per build, interleaved (default: half of --runs,
                       rounded up)
  --quick              fewer runs (2 cold, 1 warm), for a quick look
  --no-build           serve the current builds instead of running npm run build first
                       (the monolith is built every time: it is the bench's own)
  --lighthouse         also run Lighthouse (mobile, performance) on / and /game for both builds
  --lighthouse-runs N  Lighthouse runs per page and build (default 1)
  --routes A,B         only these routes' cold loads, by label (${ROUTE_LABELS.join(', ')})
  --check              CI's smoke run: does the bench still measure both builds? Serves the
                       current builds (as --no-build; the monolith is built, from its cache),
                       one cold load of ${CHECK_ROUTE} per build (federated, client- and
                       server-rendered monolith), one warm navigation, one of each interaction
                       (federated) and 1 s of page throughput per server, no Lighthouse; exits 1 unless
                       every figure measured. Takes no other option.
  -h, --help           this text

Exits 1 when any load fails or any figure it prints could not be measured.`;

const DEFAULT_RUNS = 5;
const QUICK_RUNS = 2;

export const BENCH_OPTIONS = {
  runs: { type: 'string' },
  'warm-runs': { type: 'string' },
  quick: { type: 'boolean' },
  'no-build': { type: 'boolean' },
  lighthouse: { type: 'boolean' },
  'lighthouse-runs': { type: 'string' },
  routes: { type: 'string' },
  check: { type: 'boolean' },
} as const;

/** Options a --check run refuses: it is always the same run, so that CI's figures mean the same. */
const TUNING = ['runs', 'warm-runs', 'quick', 'no-build', 'lighthouse', 'lighthouse-runs', 'routes'] as const;

export function positiveInt(flag: string, raw: string | undefined): number {
  const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    refuse(`${flag} takes a whole number from 1 to 100, got ${raw === undefined ? 'nothing' : `"${raw}"`}`);
  }
  return value;
}

function routesOf(text: string): string[] {
  const routes = text
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);
  for (const label of routes.length > 0 ? routes : ['']) {
    if (!ROUTE_LABELS.includes(label)) {
      refuse(`--routes takes labels from ${ROUTE_LABELS.join(', ')}, comma-separated; got "${label}"`);
    }
  }
  return routes;
}

/** What the bench's command line asks for; what it refuses throws UsageError. */
export function benchOptions({ values }: Pick<CommandLine<typeof BENCH_OPTIONS>, 'values'>): BenchOptions {
  if (values.check) {
    const tuning = TUNING.filter((name) => values[name] !== undefined).map((name) => `--${name}`);
    if (tuning.length > 0) refuse(`--check takes no other option, got ${tuning.join(', ')}`);
    return {
      runs: 1,
      warmRuns: 1,
      build: false,
      lighthouse: false,
      lighthouseRuns: 1,
      routes: [CHECK_ROUTE],
      check: true,
    };
  }
  const quick = values.quick === true;
  const runs = values.runs === undefined ? (quick ? QUICK_RUNS : DEFAULT_RUNS) : positiveInt('--runs', values.runs);
  const warmRuns =
    values['warm-runs'] === undefined
      ? quick
        ? 1
        : Math.max(1, Math.ceil(runs / 2))
      : positiveInt('--warm-runs', values['warm-runs']);
  const lighthouseRuns =
    values['lighthouse-runs'] === undefined ? 1 : positiveInt('--lighthouse-runs', values['lighthouse-runs']);
  return {
    runs,
    warmRuns,
    build: values['no-build'] !== true,
    lighthouse: values.lighthouse === true || values['lighthouse-runs'] !== undefined,
    lighthouseRuns,
    routes: values.routes === undefined ? [] : routesOf(values.routes),
    check: false,
  };
}

/** The bench's command line read, for a caller without the command (the tests). */
export function parseArgs(argv: readonly string[]): BenchOptions {
  return benchOptions(readCommandLine(BENCH_OPTIONS, argv));
}
