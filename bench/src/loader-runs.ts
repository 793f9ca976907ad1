/** The loader comparison's command line, the order of its builds and its tables. */
import { readCommandLine, type CommandLine } from '../../deploy/command-line';
import { positiveInt } from './args';
import { comparisonRows, kB, ms, type Metric } from './report';
import { median } from 'testbed/stats';
import { ratio } from './stats';

export const LOADERS = ['ts-loader', 'esbuild-loader'] as const;
export type Loader = (typeof LOADERS)[number];

export const LOADERS_USAGE = `Usage: npm run bench:loaders -w bench -- [options]

  --runs N     rounds: each part built cold once per loader per round (default 3)
  -h, --help   this text

Exits 1 when any build fails.`;

const DEFAULT_RUNS = 3;

export const LOADER_OPTIONS = { runs: { type: 'string' } } as const;

export interface LoaderOptions {
  runs: number;
}

export function loaderOptions({ values }: Pick<CommandLine<typeof LOADER_OPTIONS>, 'values'>): LoaderOptions {
  return { runs: values.runs === undefined ? DEFAULT_RUNS : positiveInt('--runs', values.runs) };
}

export function parseLoaderArgs(argv: readonly string[]): LoaderOptions {
  return loaderOptions(readCommandLine(LOADER_OPTIONS, argv));
}

export interface PlannedBuild {
  round: number;
  part: string;
  loader: Loader;
}

/** The loaders alternate which goes first, so neither always runs on a machine the other warmed. */
export function buildPlan(runs: number, parts: readonly string[]): PlannedBuild[] {
  let pair = 0;
  const plan: PlannedBuild[] = [];
  for (let round = 1; round <= runs; round += 1) {
    for (const part of parts) {
      const order = pair % 2 === 0 ? LOADERS : [...LOADERS].reverse();
      for (const loader of order) plan.push({ round, part, loader });
      pair += 1;
    }
  }
  return plan;
}

export interface LoaderRun extends PlannedBuild {
  ms: number;
  jsGzipBytes: number;
}

const METRICS: Metric<Pick<LoaderRun, 'ms' | 'jsGzipBytes'>>[] = [
  { label: 'cold build', of: (run) => run.ms, format: ms },
  { label: 'JS (gzip)', of: (run) => run.jsGzipBytes, format: kB },
];

export function roundTotals(runs: readonly LoaderRun[], loader: Loader): Pick<LoaderRun, 'ms' | 'jsGzipBytes'>[] {
  const rounds = [...new Set(runs.map((run) => run.round))];
  return rounds.map((round) => {
    const builds = runs.filter((run) => run.round === round && run.loader === loader);
    return {
      ms: builds.reduce((sum, run) => sum + run.ms, 0),
      jsGzipBytes: builds.reduce((sum, run) => sum + run.jsGzipBytes, 0),
    };
  });
}

export function summaryRows(runs: readonly LoaderRun[], parts: readonly string[]): string[][] {
  const of = (part: string, loader: Loader) => runs.filter((run) => run.part === part && run.loader === loader);
  return [
    ['part', 'measure', 'ts-loader', 'esbuild-loader', 'ts ÷ esbuild'],
    ...parts.flatMap((part) => comparisonRows(METRICS, of(part, 'ts-loader'), of(part, 'esbuild-loader'), part)),
    ...comparisonRows(METRICS, roundTotals(runs, 'ts-loader'), roundTotals(runs, 'esbuild-loader'), 'total'),
  ];
}

export function totalRatio(runs: readonly LoaderRun[]): number | undefined {
  const medianMs = (loader: Loader) => median(roundTotals(runs, loader).map((total) => total.ms));
  return ratio(medianMs('ts-loader'), medianMs('esbuild-loader'));
}

export function roundRows(runs: readonly LoaderRun[]): string[][] {
  const ts = roundTotals(runs, 'ts-loader');
  const esbuild = roundTotals(runs, 'esbuild-loader');
  return [
    ['round', 'ts-loader', 'esbuild-loader', 'ts ÷ esbuild'],
    ...ts.map((total, index) => {
      const other = esbuild[index]?.ms;
      const each = ratio(total.ms, other);
      return [
        String(index + 1),
        ms(total.ms),
        other === undefined ? '–' : ms(other),
        each ? `${each.toFixed(2)}×` : '–',
      ];
    }),
  ];
}
