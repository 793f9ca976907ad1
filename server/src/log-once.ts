/** Bounded: text may come from input. */
export function boundedLogOnce(log: (message: string) => void, max: number): (message: string) => void {
  const logged = new Set<string>();
  return (message) => {
    if (logged.has(message) || logged.size >= max) return;
    logged.add(message);
    log(message);
  };
}
