/**
 * How a remote's failed load ended. A browser reports an integrity refusal as a failed download,
 * so a failed script with an integrity is asked for again (integrity-check.ts).
 */
import { errorMessage } from 'shared/http-error';
import type { LoadOutcome, LoadPhase } from 'shared/telemetry';

export interface ClassifiedFailure {
  phase: LoadPhase;
  outcome: LoadOutcome;
  script?: string;
}

/** webpack's ChunkLoadError: `Loading chunk 7 failed.\n(error: https://…/7.a1b2.js)`. */
const CHUNK_FAILURE = /Loading (?:CSS )?chunk \S+ failed[^(]*\((\w+): ([^)\s]+)\)/;
const SCRIPT_FAILURE = /ScriptNetworkError: Failed to load script "([^"]+)"/;
const REFUSAL = /\bRefused \S+: ([^\n]*)/;
const TIMEOUT = /\btimed out\b|\bTimeoutError\b|due to timeout/;

export function classifyFailure(error: unknown, phase: LoadPhase): ClassifiedFailure {
  const message = errorMessage(error);
  const chunk = CHUNK_FAILURE.exec(message);
  const where: LoadPhase = chunk ? 'chunk' : phase;
  if (
    (error as { name?: unknown } | null)?.name === 'RemoteTimeoutError' ||
    chunk?.[1] === 'timeout' ||
    TIMEOUT.test(message)
  ) {
    return { phase: where, outcome: 'timeout' };
  }
  const refused = REFUSAL.exec(message);
  if (refused) return { phase: where, outcome: /\bintegrity\b/.test(refused[1] ?? '') ? 'integrity' : 'origin' };
  const script = chunk?.[2] ?? SCRIPT_FAILURE.exec(message)?.[1];
  return { phase: where, outcome: 'failed', script };
}
