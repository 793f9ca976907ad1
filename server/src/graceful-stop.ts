/**
 * The graceful stop every server of ours runs on SIGTERM or SIGINT (stop-signals.ts says which
 * signal waits): it stops taking work, drains, runs what must happen after the drain, then exits
 * 0, or 1 when the drain was cut short or failed.
 */
import type { Logger } from './log';
import { onStopSignals } from './stop-signals';

export interface GracefulStopOptions {
  /** After SIGTERM, how long the server keeps serving while its readiness says it is going. */
  delayMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** What the log says as the stop begins. */
  message?: string;
  /** Stops taking work, waits `delayMs`, drains: true once everything in flight finished. */
  stop(delayMs: number): Promise<boolean>;
  /** A second SIGINT: somebody insists. */
  hurry(signal: NodeJS.Signals): void;
  /** Once drained, before the exit: what the server started or opened (workers, a database). */
  afterStop?: () => Promise<void>;
}

/** Installs the handlers; returns a function that removes them. */
export function stopOnSignals({ delayMs, log, message, stop, hurry, afterStop }: GracefulStopOptions): () => void {
  return onStopSignals({
    delayMs,
    hurry,
    stop: (signal, delay) => {
      const said = message ?? `shutting down${delay > 0 ? `, health 503 for ${delay} ms first` : ''}`;
      log.info({ signal, delayMs: delay }, said);
      void stop(delay)
        .then(async (complete) => {
          if (!complete) log.error('requests still open after the shutdown timeout were dropped');
          await afterStop?.().catch((error: unknown) => log.error({ err: error }, 'stopping failed'));
          return complete;
        })
        .then(
          (complete) => process.exit(complete ? 0 : 1),
          (error: unknown) => {
            log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    },
  });
}
