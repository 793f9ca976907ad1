/**
 * The canaries aborted in a deployment folder, so `rollback --list` can say what became of a build.
 * The file's name starts with a dot, so no server serves it: a reason is for operators.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isBuildId } from 'shared/deployment';
import { writeAtomically } from './deployment';

export const CANARY_ABORTS_FILE = 'builds/.canary-aborts.json';
export const MAX_CANARY_ABORTS = 50;

export interface CanaryAbort {
  id: string;
  at: number;
  by: string;
  reason: string;
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

export async function readCanaryAborts(target: string): Promise<CanaryAbort[]> {
  try {
    const parsed = JSON.parse(await readFile(join(target, CANARY_ABORTS_FILE), 'utf8')) as { aborts?: unknown };
    return Array.isArray(parsed.aborts) ? parsed.aborts.filter(isAbort) : [];
  } catch {
    return [];
  }
}

export async function recordCanaryAbort(target: string, abort: CanaryAbort): Promise<void> {
  const aborts = [abort, ...(await readCanaryAborts(target))].slice(0, MAX_CANARY_ABORTS);
  await writeAtomically(join(target, CANARY_ABORTS_FILE), `${JSON.stringify({ aborts })}\n`);
}

export function latestAbortOf(aborts: readonly CanaryAbort[]): Map<string, CanaryAbort> {
  const latest = new Map<string, CanaryAbort>();
  for (const abort of aborts) if (!latest.has(abort.id)) latest.set(abort.id, abort);
  return latest;
}
