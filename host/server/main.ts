/** Starts the host's production server: `npm run serve -w host`. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readPort } from 'shared/node/env';
import { serve } from 'shared/node/serve';
import { createHostHandler } from './host-handler';
import { runtimeConfigFromEnv } from './runtime-config-from-env';

function main(): void {
  const root = join(__dirname, '..', 'dist');
  let config;
  let port;
  try {
    config = runtimeConfigFromEnv(process.env);
    port = readPort('host');
  } catch (error) {
    console.error(`[host] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  if (!existsSync(join(root, 'index.html'))) {
    console.error('[host] cannot start: dist/index.html is missing; run npm run build -w host');
    process.exit(1);
  }
  void serve('host', port, createHostHandler({ root, config }));
}

main();
