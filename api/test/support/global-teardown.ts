/** Stops the PostgreSQL cluster globalSetup started, and removes its folder. */
export default async function globalTeardown(): Promise<void> {
  const cluster = globalThis.apiTestPostgresCluster;
  globalThis.apiTestPostgresCluster = undefined;
  await cluster?.stop();
}
