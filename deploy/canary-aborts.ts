/**
 * The canaries aborted in a deployment folder, newest first: which build, when, by what and why,
 * so `rollback --list` can say what became of a build that never was current. Kept in
 * `builds/.canary-aborts.json`, written whole in one rename under the deployment's lock; its name
 * starts with a dot, so nginx and the remotes' servers never serve it (a reason is for operators,
 * not visitors).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isBuildId } from 'shared/deployment';
import { writeAtomically } from './deployment';

export const CANARY_ABORTS_FILE = 'builds/.canary-aborts.json';
/** The aborts the file keeps: the oldest drop off. */
export const MAX_CANARY_ABORTS = 50;

export interface CanaryAbort {
  id: string;
  /** When it was aborted (ms since the epoch). */
  at: number;
  /** What aborted it: the release run, the canary command, a rollback. */
  by: string;
  reason: string;
  /** Its share of visitors when it was aborted. */
  percent: number;
}

function isAbort(value: unknown): value is CanaryAbort {
  const entry = value as Partial<Record<keyof CanaryAbort, unknown>> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    isBuildId(entry.id) &&
    typeof entry.at === 'number' &&
    typeof entry.by === 'string' &&
    typeof entry.reason === 'string' &&
    typeof entry.percent === 'number'
  );
}

/** The aborts `target` records, newest first; none when the file is missing or unreadable. */
export async function readCanaryAborts(target: string): Promise<CanaryAbort[]> {
  try {
    const parsed = JSON.parse(await readFile(join(target, CANARY_ABORTS_FILE), 'utf8')) as { aborts?: unknown };
    return Array.isArray(parsed.aborts) ? parsed.aborts.filter(isAbort) : [];
  } catch {
    return [];
  }
}

/** Records `abort` first; the caller holds the deployment's lock. */
export async function recordCanaryAbort(target: string, abort: CanaryAbort): Promise<void> {
  const aborts = [abort, ...(await readCanaryAborts(target))].slice(0, MAX_CANARY_ABORTS);
  await writeAtomically(join(target, CANARY_ABORTS_FILE), `${JSON.stringify({ aborts })}\n`);
}

/** The latest abort of each build. */
export function latestAbortOf(aborts: readonly CanaryAbort[]): Map<string, CanaryAbort> {
  const latest = new Map<string, CanaryAbort>();
  for (const abort of aborts) if (!latest.has(abort.id)) latest.set(abort.id, abort);
  return latest;
}
