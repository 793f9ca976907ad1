/**
 * A remote's own `dist/` is published (deploy, deploy --stage, release) only while it is the build
 * of the sources beside it: its build stamp (scripts/build-stamp.ts) names the inputs it was made
 * from, and a change since (the remote's src/, its webpack config or package.json, `shared`, the
 * build's plugins, the installed packages) would otherwise reach visitors as a build nobody made
 * from them. `--allow-stale-dist` publishes it as it is. A build given with `--from` or by id is
 * the operator's choice and is not checked.
 */
import { basename, dirname } from 'node:path';
import { partMarkers, staleReason } from '../scripts/build-stamp';

export const ALLOW_STALE_DIST = '--allow-stale-dist';

/** Options that name another build than the package's dist/ (or none at all). */
const OTHER_SOURCES = ['--from', '--build', '--revoke', '--help', '-h'];

function names(arg: string, option: string): boolean {
  return arg === option || arg.startsWith(`${option}=`);
}

/** Why the package's dist/ is not the build of its sources, as a message for `command`; undefined when it is. */
export function staleDistProblem(packageDir: string, command: string): string | undefined {
  const root = dirname(packageDir);
  const part = basename(packageDir);
  // The web build alone is published: its compiled server need not exist.
  const markers = (partMarkers(root, part) ?? []).filter((marker) => marker.startsWith('dist/'));
  const reason = staleReason(root, part, markers);
  if (reason === undefined) return undefined;
  return (
    `${command}: ${part}/dist is not the build of its sources (${reason}). ` +
    `Build it first (npm run build -w ${part}), or publish it as it is with ${ALLOW_STALE_DIST}.`
  );
}

export interface DistCheck {
  /** The command line without `--allow-stale-dist`, for the command's own parser. */
  argv: string[];
  /** Set when the command would publish a stale dist/: the message to print, the command not run. */
  problem?: string;
}

/**
 * Checks the package's dist/ before a command line that publishes it: one that names no other
 * build (`--from`, `--build`) and does more than revoke or print its help.
 */
export function checkDist(argv: readonly string[], packageDir: string, command: string): DistCheck {
  const allowed = argv.includes(ALLOW_STALE_DIST);
  const rest = argv.filter((arg) => arg !== ALLOW_STALE_DIST);
  // After `--`, everything is a positional: no option is named there.
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (allowed || options.some((arg) => OTHER_SOURCES.some((option) => names(arg, option)))) return { argv: rest };
  const problem = staleDistProblem(packageDir, command);
  return problem === undefined ? { argv: rest } : { argv: rest, problem };
}

/**
 * Runs `command`'s command line through `run` (without `--allow-stale-dist`), unless it would
 * publish a stale dist/: then says why and resolves to 1.
 */
export async function runUnlessStale(
  argv: readonly string[],
  io: { packageDir: string; err: (line: string) => void },
  command: string,
  run: (argv: string[]) => Promise<number>,
): Promise<number> {
  const check = checkDist(argv, io.packageDir, command);
  if (check.problem === undefined) return run(check.argv);
  io.err(check.problem);
  return 1;
}
