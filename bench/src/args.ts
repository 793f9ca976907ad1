/**
 * The bench's command line: `npm run bench -- [--runs N] [--quick] [--no-build] [--lighthouse]
 * [--routes A,B]`, or `npm run bench -- --check` (CI's smoke run).
 */

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
  help: boolean;
}

/** The route --check loads: the federated page loads a remote and its data (an API call). */
export const CHECK_ROUTE = '/redeem/{id}';

export const USAGE = `usage: npm run bench -- [options]

  --runs N             cold loads per route and build, interleaved (default 7)
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
                       (federated) and 4 s of page throughput, no Lighthouse; exits 1 unless
                       every figure measured. Takes no other option.
  --help               this text

Exits 1 when any load fails or any figure it prints could not be measured.`;

const DEFAULT_RUNS = 7;
const QUICK_RUNS = 2;

export function positiveInt(flag: string, raw: string | undefined): number {
  const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    throw new Error(`${flag} takes a whole number from 1 to 100, got ${raw === undefined ? 'nothing' : `"${raw}"`}`);
  }
  return value;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  let runs: number | undefined;
  let warmRuns: number | undefined;
  let quick = false;
  let build = true;
  let lighthouse = false;
  let lighthouseRuns = 1;
  let routes: string[] = [];
  let check = false;
  let help = false;
  /** Options a --check run refuses: it is always the same run, so that CI's figures mean the same. */
  const tuning: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const value = () => inline ?? argv[(index += 1)];
    switch (flag) {
      case '--runs':
        tuning.push(flag);
        runs = positiveInt('--runs', value());
        break;
      case '--warm-runs':
        tuning.push(flag);
        warmRuns = positiveInt('--warm-runs', value());
        break;
      case '--quick':
        tuning.push(flag);
        quick = true;
        break;
      case '--no-build':
        tuning.push(flag);
        build = false;
        break;
      case '--lighthouse':
        tuning.push(flag);
        lighthouse = true;
        break;
      case '--lighthouse-runs':
        tuning.push(flag);
        lighthouseRuns = positiveInt('--lighthouse-runs', value());
        lighthouse = true;
        break;
      case '--routes':
        tuning.push(flag);
        routes = (value() ?? '')
          .split(',')
          .map((label) => label.trim())
          .filter(Boolean);
        for (const label of routes.length > 0 ? routes : ['']) {
          if (!ROUTE_LABELS.includes(label)) {
            throw new Error(`--routes takes labels from ${ROUTE_LABELS.join(', ')}, comma-separated; got "${label}"`);
          }
        }
        break;
      case '--check':
        check = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new Error(`unknown argument "${arg}"\n\n${USAGE}`);
    }
  }
  if (check) {
    if (tuning.length > 0) throw new Error(`--check takes no other option, got ${tuning.join(', ')}\n\n${USAGE}`);
    return {
      runs: 1,
      warmRuns: 1,
      build: false,
      lighthouse: false,
      lighthouseRuns: 1,
      routes: [CHECK_ROUTE],
      check,
      help,
    };
  }
  const coldRuns = runs ?? (quick ? QUICK_RUNS : DEFAULT_RUNS);
  return {
    runs: coldRuns,
    warmRuns: warmRuns ?? (quick ? 1 : Math.max(1, Math.ceil(coldRuns / 2))),
    build,
    lighthouse,
    lighthouseRuns,
    routes,
    check,
    help,
  };
}
