/**
 * How a remote's failed load ended, told from its error: timed out, refused by the host (not at
 * an allowed origin, or without the integrity its manifest must give: loading-plugin.ts), refused
 * by the browser because the script's bytes did not match its integrity, or failed (the network,
 * the server, a broken module). A browser reports a script its integrity check refused as it
 * reports one it could not download, so for a failed script with an integrity, the page asks for
 * it again: refused with the integrity and served without it, it was the integrity. Only ever on
 * a failure.
 */
import { errorMessage } from 'shared/http-error';
import type { LoadOutcome, LoadPhase } from 'shared/telemetry';

export interface FailureChecks {
  /** The integrity the remote's manifest gives for a script. */
  integrityOf(url: string): string | undefined;
  fetch: typeof fetch;
}

export interface ClassifiedFailure {
  phase: LoadPhase;
  outcome: LoadOutcome;
}

/** webpack's ChunkLoadError: `Loading chunk 7 failed.\n(error: https://…/7.a1b2.js)`. */
const CHUNK_FAILURE = /Loading (?:CSS )?chunk \S+ failed[^(]*\((\w+): ([^)\s]+)\)/;
/** The federation runtime's failed script (its entry), whatever error wraps it. */
const SCRIPT_FAILURE = /ScriptNetworkError: Failed to load script "([^"]+)"/;
/** The host's own refusal (loading-plugin.ts); the reasons about integrity name it. */
const REFUSAL = /\bRefused \S+: ([^\n]*)/;
const TIMEOUT = /\btimed out\b|\bTimeoutError\b|due to timeout/;

export async function classifyFailure(
  error: unknown,
  phase: LoadPhase,
  checks: FailureChecks,
): Promise<ClassifiedFailure> {
  const name = (error as { name?: unknown } | null)?.name;
  const message = errorMessage(error);
  const chunk = CHUNK_FAILURE.exec(message);
  const where: LoadPhase = chunk || name === 'ChunkLoadError' ? 'chunk' : phase;
  if (name === 'RemoteTimeoutError' || chunk?.[1] === 'timeout' || TIMEOUT.test(message)) {
    return { phase: where, outcome: 'timeout' };
  }
  const refused = REFUSAL.exec(message);
  if (refused) return { phase: where, outcome: /\bintegrity\b/.test(refused[1] ?? '') ? 'integrity' : 'origin' };
  const url = chunk?.[2] ?? SCRIPT_FAILURE.exec(message)?.[1];
  const integrity = url === undefined ? undefined : checks.integrityOf(url);
  if (url && integrity && (await refusedForIntegrity(url, integrity, checks.fetch))) {
    return { phase: where, outcome: 'integrity' };
  }
  return { phase: where, outcome: 'failed' };
}

/** The bytes at `url` fail `integrity`, though the server gives them. */
async function refusedForIntegrity(url: string, integrity: string, fetchFn: typeof fetch): Promise<boolean> {
  try {
    await fetchFn(url, { integrity, mode: 'cors', credentials: 'omit' });
    return false; // the bytes match now: the script's download itself failed
  } catch {
    try {
      return (await fetchFn(url, { mode: 'cors', credentials: 'omit' })).ok;
    } catch {
      return false;
    }
  }
}
