/**
 * How every server of ours reacts to stop signals. The first SIGTERM (an orchestrator) or SIGINT
 * (Ctrl-C) starts one graceful stop; after SIGTERM it first waits `delayMs` so load balancers see
 * the server as not ready before it stops taking requests, after SIGINT it does not wait. A
 * repeated SIGTERM is the copy npm forwards to its process group and changes nothing; a
 * repeated SIGINT is somebody insisting, and `hurry` runs.
 */
export interface StopSignalOptions {
  delayMs: number;
  stop(signal: NodeJS.Signals, delayMs: number): void;
  hurry(signal: NodeJS.Signals): void;
}

/** Installs the handlers; returns a function that removes them. */
export function onStopSignals({ delayMs, stop, hurry }: StopSignalOptions): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') hurry(signal);
      return;
    }
    stopping = true;
    stop(signal, signal === 'SIGTERM' ? delayMs : 0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
