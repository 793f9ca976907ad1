/** The bench's command line: `npm run bench -- [--runs N] [--quick] [--no-build] [--lighthouse] [--routes A,B]`. */

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
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [options]

  --runs N             cold loads per route and build, interleaved (default 7)
  --quick              fewer runs (2 cold, 1 warm), for a smoke run
  --no-build           serve the current builds instead of running npm run build first
                       (the monolith is built every time: it is the bench's own)
  --lighthouse         also run Lighthouse (mobile, performance) on / and /game for both builds
  --lighthouse-runs N  Lighthouse runs per page and build (default 1)
  --routes A,B         only these routes' cold loads, by label (/, /about, /game, /gifts/{id})
  --help               this text`;

const DEFAULT_RUNS = 7;
const QUICK_RUNS = 2;

function positiveInt(flag: string, raw: string | undefined): number {
  const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    throw new Error(`${flag} takes a whole number from 1 to 100, got ${raw === undefined ? 'nothing' : `"${raw}"`}`);
  }
  return value;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  let runs: number | undefined;
  let quick = false;
  let build = true;
  let lighthouse = false;
  let lighthouseRuns = 1;
  let routes: string[] = [];
  let help = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const value = () => inline ?? argv[(index += 1)];
    switch (flag) {
      case '--runs':
        runs = positiveInt('--runs', value());
        break;
      case '--quick':
        quick = true;
        break;
      case '--no-build':
        build = false;
        break;
      case '--lighthouse':
        lighthouse = true;
        break;
      case '--lighthouse-runs':
        lighthouseRuns = positiveInt('--lighthouse-runs', value());
        lighthouse = true;
        break;
      case '--routes':
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
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new Error(`unknown argument "${arg}"\n\n${USAGE}`);
    }
  }
  const coldRuns = runs ?? (quick ? QUICK_RUNS : DEFAULT_RUNS);
  return {
    runs: coldRuns,
    warmRuns: quick ? 1 : Math.max(1, Math.ceil(coldRuns / 2)),
    build,
    lighthouse,
    lighthouseRuns,
    routes,
    help,
  };
}
