/**
 * `npm run build`: builds every part (or those named) as a deploy needs them, several at a time,
 * and stamps each part that built (scripts/build-stamp.ts) so that `npm start` knows it current.
 *
 *   tsx scripts/build-all.ts [part…]      e.g. `tsx scripts/build-all.ts host remote-gifts`
 *
 * A part's build is its package's `build:web` (webpack) and `build:server` (its server bundle),
 * each a task of its own; at most BUILD_CONCURRENCY tasks (default: one per CPU core) run at
 * once, the longest first. A task that fails does not stop the others; the command then names
 * every part that failed and exits 1.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Writable } from 'node:stream';
import { concurrently, type CloseEvent } from 'concurrently';
import { inputsHash, partMarkers, PARTS, removeStamp, writeStamp } from './build-stamp';

const ROOT = join(__dirname, '..');
/** A part's build steps, each a script of its package.json, in the order they are started. */
const STEPS = ['build:web', 'build:server'] as const;

export interface BuildTask {
  part: string;
  script: (typeof STEPS)[number];
  /** The script's command line, as in the part's package.json. */
  command: string;
}

/** The tasks of `parts`' builds, webpack's first (the longest) and the host's first of those. */
export function buildTasks(root: string, parts: readonly string[]): BuildTask[] {
  const tasks = parts.flatMap((part) => {
    const manifest = JSON.parse(readFileSync(join(root, part, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const steps = STEPS.flatMap((script) => {
      const command = manifest.scripts?.[script];
      return command ? [{ part, script, command }] : [];
    });
    if (steps.length === 0) throw new Error(`${part}/package.json has neither ${STEPS.join(' nor ')}`);
    return steps;
  });
  const weight = (task: BuildTask) => STEPS.indexOf(task.script) * 2 + (task.part === 'host' ? 0 : 1);
  return tasks.sort((a, b) => weight(a) - weight(b));
}

export function buildConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.BUILD_CONCURRENCY);
  return Number.isInteger(configured) && configured > 0 ? configured : Math.max(1, availableParallelism());
}

/**
 * Builds `parts`; resolves with those that failed (none: all built and stamped). The tasks'
 * output, prefixed with their names, goes to `output`.
 */
export async function buildParts(
  parts: readonly string[],
  { root = ROOT, output = process.stdout }: { root?: string; output?: Writable } = {},
): Promise<string[]> {
  const tasks = buildTasks(root, parts);
  // Taken before anything is built: a source changed during the build leaves the part stale.
  const hashes = new Map(parts.map((part) => [part, inputsHash(root, part)]));
  for (const part of parts) removeStamp(root, part);

  // Each script's own command, run as `npm run` runs it (in the part's folder, the packages'
  // binaries on the PATH), without an npm process per task.
  const bin = (dir: string) => join(dir, 'node_modules', '.bin');
  const { result } = concurrently(
    tasks.map(({ part, script, command }) => ({
      name: `${part}:${script.slice('build:'.length)}`,
      command,
      cwd: join(root, part),
      env: { PATH: [bin(join(root, part)), bin(root), process.env.PATH].join(delimiter) },
    })),
    { cwd: root, maxProcesses: buildConcurrency(), prefix: 'name', timings: true, outputStream: output },
  );
  const events: CloseEvent[] = await result.catch((closed: CloseEvent[]) => closed);

  const failed = new Set<string>();
  tasks.forEach((task, index) => {
    const event = events.find((closed) => closed.index === index);
    if (event?.exitCode !== 0) failed.add(task.part);
  });
  for (const part of parts) {
    if (failed.has(part)) continue;
    try {
      writeStamp(root, part, hashes.get(part) ?? '', partMarkers(root, part));
    } catch (error) {
      console.error(`[build] ${(error as Error).message}`);
      failed.add(part);
    }
  }
  return parts.filter((part) => failed.has(part));
}

async function main(args: string[]): Promise<void> {
  const parts = args.length > 0 ? args : Object.keys(PARTS);
  const unknown = parts.filter((part) => !partMarkers(ROOT, part));
  if (unknown.length > 0) {
    console.error(
      `[build] unknown part(s): ${unknown.join(', ')}; the parts are ${Object.keys(PARTS).join(', ')} and the remote-<name>/ folders with their own remote-spec.ts`,
    );
    process.exit(2);
  }
  const startedAt = Date.now();
  const failed = await buildParts(parts);
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  if (failed.length > 0) {
    console.error(`[build] FAILED: ${failed.join(', ')} (see the lines prefixed with their names above)`);
    process.exit(1);
  }
  console.log(`[build] built ${parts.join(', ')} in ${seconds} s`);
}

if (require.main === module) void main(process.argv.slice(2));
