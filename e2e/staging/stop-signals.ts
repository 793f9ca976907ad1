/**
 * SIGINT and SIGTERM as a command that winds down takes them: the first asks it to stop, a
 * second one, later, to leave at once. One Ctrl-C reaches the process more than once (the
 * terminal's, then tsx relaying it to the child it runs), so signals that come within
 * SAME_SIGNAL_MS of the first are that first one.
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
