/**
 * SIGINT and SIGTERM as a command that winds down takes them: the first asks it to stop, a
 * second one, later, to leave at once. One Ctrl-C can reach the process more than once (the
 * terminal's, then npm relaying it to the script it runs), so signals that come within
 * SAME_SIGNAL_MS of the first are that first one. The command runs as one Node process with
 * tsx's loader (`node --import tsx`), not under tsx's own parent process, which relays a signal
 * only after asking its child whether it handles it, and under load gave up waiting for the
 * answer and exited, leaving the command behind it.
 */
export const SAME_SIGNAL_MS = 1_000;

export interface StopSignalHandlers {
  first(signal: NodeJS.Signals): void;
  again(signal: NodeJS.Signals): void;
}

/** Installs the handlers; gives a function that removes them. */
export function onStopSignals(handlers: StopSignalHandlers, now: () => number = Date.now): () => void {
  let firstAt: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) {
      firstAt = now();
      handlers.first(signal);
    } else if (now() - firstAt >= SAME_SIGNAL_MS) handlers.again(signal);
  };
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, handle);
  return () => {
    for (const signal of signals) process.off(signal, handle);
  };
}
