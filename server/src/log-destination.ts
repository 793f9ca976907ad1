/**
 * Where the API's log lines go in a server: stdout, asynchronously, through pino's SonicBoom, with
 * the lines of up to HAND_OVER_MS (or HAND_OVER_CHARS) handed to it together.
 *
 * Why: every request writes a line (the access log). SonicBoom, given a line while a write is in
 * flight, appends it to its pending text and measures the bytes of that whole text again (up to
 * 16 KiB) for each line, and each of its writes is a trip through libuv's thread pool. Handed a
 * batch, it measures each byte about once and writes once per batch. A line waits at most
 * HAND_OVER_MS; lines keep their order; at exit what is pending is written at once (a process
 * killed with SIGKILL loses at most the last HAND_OVER_MS of lines, as it loses what SonicBoom
 * had not written yet).
 */
import { type DestinationStream } from 'pino';

/** How long a line may wait to be handed over. */
export const HAND_OVER_MS = 50;
/** Handed over at once past this many pending characters. */
const HAND_OVER_CHARS = 16 * 1024;

/** What the batch is handed to: pino's SonicBoom (`pino.destination`). */
export interface LineSink {
  write(text: string): boolean;
  flush?(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

export interface BatchedDestination extends DestinationStream {
  /** Hands the pending lines over, then has the sink write what it holds. */
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
      // Not unref'd: a process left with nothing else to do still hands its last lines over.
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
  // On process.exit() no timer runs any more: what is pending is written now (pino flushes the
  // sink itself on exit too, possibly before this runs, so the sink is flushed again).
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // nothing more can be done for a log line at exit
    }
  });
  return destination;
}
