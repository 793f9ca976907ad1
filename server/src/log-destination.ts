/** Lines handed to SonicBoom in batches: one at a time, it re-measures its whole pending text per line. */
import { type DestinationStream } from 'pino';

export const HAND_OVER_MS = 50;
const HAND_OVER_CHARS = 16 * 1024;

export interface LineSink {
  write(text: string): boolean;
  flush?(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

export interface BatchedDestination extends DestinationStream {
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

export function batchedDestination(sink: LineSink): BatchedDestination {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink.write(text);
  };
  const destination: BatchedDestination = {
    write(line: string) {
      pending += line;
      if (pending.length >= HAND_OVER_CHARS) handOver();
      // Not unref'd: the last lines go out.
      else timer ??= setTimeout(handOver, HAND_OVER_MS);
      return true;
    },
    flush(callback) {
      handOver();
      if (sink.flush) sink.flush(callback);
      else callback?.();
    },
    flushSync() {
      handOver();
      sink.flushSync();
    },
  };
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // A log line has nowhere else to go at exit.
    }
  });
  return destination;
}
