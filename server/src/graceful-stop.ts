/** The graceful stop of every server of ours: exit 0 once drained, 1 when cut short or failed. */
import type { Logger } from './log';
import { onStopSignals } from './stop-signals';

export interface GracefulStopOptions {
  delayMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  message?: string;
  /** True once everything in flight finished. */
  stop(delayMs: number): Promise<boolean>;
  hurry(signal: NodeJS.Signals): void;
  afterStop?: () => Promise<void>;
}

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
