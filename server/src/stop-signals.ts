/** SIGTERM waits `delayMs` for load balancers; a second SIGINT runs `hurry`, a second SIGTERM (npm's copy) nothing. */
export interface StopSignalOptions {
  delayMs: number;
  stop(signal: NodeJS.Signals, delayMs: number): void;
  hurry(signal: NodeJS.Signals): void;
}

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
