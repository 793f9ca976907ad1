/**
 * `npm run bench:loaders -w bench -- [--runs N]`: ts-loader against esbuild-loader, each part built
 * cold with its real config, the loaders alternating (docs/decisions/0024-typescript-loader.md).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { CONSOLE, defineCommand, exitStatusOf, runMain } from '../../deploy/command-line';
import {
  buildPlan,
  LOADER_OPTIONS,
  loaderOptions,
  LOADERS_USAGE,
  roundRows,
  summaryRows,
  totalRatio,
  type LoaderOptions,
  type LoaderRun,
  type PlannedBuild,
} from './loader-runs';
import { describeMachine } from './machine';
import { ROOT_DIR, WORK_DIR } from './paths';
import { runToEnd } from './processes';
import { heading, table } from './report';
import { servedBytes } from './sizes';
import { stopAll } from 'testbed/process';

const PARTS = ['host', ...Object.values(REMOTES).map((remote) => remote.packageDir)];
const LOADERS_DIR = join(WORK_DIR, 'loaders');
const WEBPACK = join(ROOT_DIR, 'node_modules', '.bin', 'webpack');
const CONFIG = join(__dirname, 'loader-config.ts');
/** The outputs then differ only by what the loaders wrote. */
const BUILD_ID = 'loaders-bench';
const ALLOWED_EXTRA = 0.2;

const log = (text = '') => console.log(text);
const progress = (text: string) => process.stderr.write(`${text}\n`);

function version(pkg: string): string {
  const file = require.resolve(`${pkg}/package.json`, { paths: [ROOT_DIR] });
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(dir, name));
}

async function build({ round, part, loader }: PlannedBuild): Promise<LoaderRun> {
  const out = join(LOADERS_DIR, loader, part);
  rmSync(out, { recursive: true, force: true });
  const ms = await runToEnd(`loaders-${part}-${loader}`, WEBPACK, ['--config', CONFIG, '--mode', 'production'], {
    cwd: join(ROOT_DIR, part),
    env: { ...process.env, BUILD_ID, LOADERS_PART: part, LOADERS_LOADER: loader, LOADERS_OUT: out },
  });
  const files = jsFiles(join(out, 'dist'));
  if (files.length === 0) throw new Error(`${part}'s build with ${loader} wrote no JavaScript into ${out}/dist`);
  const jsGzipBytes = files.reduce((sum, file) => sum + servedBytes(file), 0);
  return { round, part, loader, ms, jsGzipBytes };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function main(options: LoaderOptions): Promise<void> {
  log('Gift Box bench: cold webpack builds, ts-loader vs esbuild-loader');
  const software = ['webpack', 'typescript', 'ts-loader', 'esbuild-loader', 'esbuild'].map(
    (pkg) => `${pkg} ${version(pkg)}`,
  );
  for (const line of describeMachine(software.join(', '))) log(line);
  log(`builds:   ${PARTS.join(', ')}; production, cold (empty webpack cache), one at a time, ${options.runs} round(s)`);
  log(`load:     ${load()} (1, 5, 15 min) at the start`);

  const plan = buildPlan(options.runs, PARTS);
  const runs: LoaderRun[] = [];
  for (const [index, planned] of plan.entries()) {
    const run = await build(planned);
    runs.push(run);
    progress(
      `[${index + 1}/${plan.length}] round ${run.round} ${run.part} ${run.loader}: ${(run.ms / 1000).toFixed(1)} s, load ${load()}`,
    );
  }
  log(`load:     ${load()} (1, 5, 15 min) at the end`);

  log(heading('Cold production builds (medians of the rounds; total: of the rounds’ sums)'));
  log(table(summaryRows(runs, PARTS)));
  log(heading('Each round, all parts'));
  log(table(roundRows(runs)));
  const ratio = totalRatio(runs);
  if (ratio === undefined) throw new Error('no ratio: a loader has no builds');
  const verdict = ratio <= 1 + ALLOWED_EXTRA ? 'ts-loader' : 'esbuild-loader';
  log(
    `\nts-loader's cold build of everything takes ${ratio.toFixed(2)}× esbuild-loader's ` +
      `(the rule allows ${(1 + ALLOWED_EXTRA).toFixed(2)}×): ${verdict}`,
  );
}

let signalled = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  // process.on, not once: npm relays the terminal's Ctrl-C, and that copy must not end the process.
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    progress(`\n${signal}: stopping the build…`);
    void stopAll().finally(() => process.exit(code));
  });
}

runMain(
  defineCommand({
    name: 'bench:loaders',
    summary: 'cold webpack builds, ts-loader against esbuild-loader',
    usage: LOADERS_USAGE,
    options: LOADER_OPTIONS,
    run: (line) => exitStatusOf('bench:loaders', main(loaderOptions(line))),
  }),
  CONSOLE,
);
