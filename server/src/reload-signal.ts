/** SIGHUP re-reads what a server reads from outside; reloads never overlap. */
export function onReloadSignal(name: string, reload: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = () => {
    running = true;
    console.log(`[${name}] SIGHUP: reloading`);
    reload()
      .then(
        () => console.log(`[${name}] reloaded`),
        (error: unknown) => console.error(`[${name}] reload failed, still serving what it had`, error),
      )
      .finally(() => {
        running = false;
        if (!again) return;
        again = false;
        run();
      });
  };
  const onSignal = () => {
    if (running) again = true;
    else run();
  };
  process.on('SIGHUP', onSignal);
  return () => {
    process.off('SIGHUP', onSignal);
  };
}
