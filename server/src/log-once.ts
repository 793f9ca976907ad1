/**
 * A logger that writes each message once, and at most `max` distinct ones: where the text comes
 * from input (a forged token, a remote's refusal), what is remembered of it stays bounded.
 */
export function boundedLogOnce(log: (message: string) => void, max: number): (message: string) => void {
  const logged = new Set<string>();
  return (message) => {
    if (logged.has(message) || logged.size >= max) return;
    logged.add(message);
    log(message);
  };
}
