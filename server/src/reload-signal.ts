/**
 * What SIGHUP does to a server that can reload (`systemctl reload`, ExecReload= in its unit):
 * it re-reads what it reads from outside, still serving meanwhile. Reloads never overlap: one
 * asked for while another runs follows it once. A server without a reload keeps Node's default,
 * and its unit has no ExecReload=.
 */
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
