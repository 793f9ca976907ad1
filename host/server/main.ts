/**
 * Starts the host's production server: `npm run serve -w host` runs its bundle,
 * `dist-server/main.js`. Paths are relative to this file's folder, which is `server/` from
 * source and `dist-server/` once bundled: both sit beside `dist/`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readListenHost, readPort, readShutdownDelay } from 'shared/node/env';
import { serve } from 'shared/node/serve';
import { createHostHandler, HOST_BUILD_FILE } from './host-handler';
import { runtimeConfigFromEnv } from './runtime-config-from-env';

function main(): void {
  const root = join(__dirname, '..', 'dist');
  let config;
  let port;
  let listenHost;
  let shutdownDelayMs;
  try {
    config = runtimeConfigFromEnv(process.env);
    port = readPort('host');
    listenHost = readListenHost();
    shutdownDelayMs = readShutdownDelay();
  } catch (error) {
    console.error(`[host] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  if (!existsSync(join(root, 'index.html'))) {
    console.error('[host] cannot start: dist/index.html is missing; run npm run build -w host');
    process.exit(1);
  }
  void serve('host', port, createHostHandler({ root, config }), {
    buildFile: join(root, HOST_BUILD_FILE),
    listenHost,
    shutdownDelayMs,
  });
}

main();
