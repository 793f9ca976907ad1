/**
 * How a remote's failed load ended, told from its error: timed out, refused by the host (not at
 * an allowed origin, or without the integrity its manifest must give: loading-plugin.ts), or
 * failed (the network, the server, a broken module). A browser reports a script its integrity
 * check refused as it reports one it could not download, so a failed script with an integrity is
 * asked for again (`refusedForIntegrity`, integrity-check.ts): served, with other bytes than its
 * digest, it was the integrity. Only ever on a failure.
 */
import { errorMessage } from 'shared/http-error';
import type { LoadOutcome, LoadPhase } from 'shared/telemetry';

export interface ClassifiedFailure {
  phase: LoadPhase;
  outcome: LoadOutcome;
  /** The script that failed to download, when the error names one: to be asked for again. */
  script?: string;
}

/** webpack's ChunkLoadError: `Loading chunk 7 failed.\n(error: https://…/7.a1b2.js)`. */
const CHUNK_FAILURE = /Loading (?:CSS )?chunk \S+ failed[^(]*\((\w+): ([^)\s]+)\)/;
/** The federation runtime's failed script (its entry), whatever error wraps it. */
const SCRIPT_FAILURE = /ScriptNetworkError: Failed to load script "([^"]+)"/;
/** The host's own refusal (loading-plugin.ts); the reasons about integrity name it. */
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
