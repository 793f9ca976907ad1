/**
 * Serves this remote's production build (or the folder in STATIC_ROOT, such as a deploy target),
 * as a static host or CDN would, for the host's origin. `npm run serve -w remote-content` runs its
 * bundle, `dist-server/main.js`; from there, as from `server/`, the build is `../dist`.
 */
import { join } from 'node:path';
import { readHostOrigin, readListenHost, readPort, readShutdownDelay, readStaticRoot } from 'server/env';
import { serveRemoteDist } from 'server/serve';

void serveRemoteDist('remote-content', {
  port: readPort('content'),
  root: readStaticRoot(join(__dirname, '..', 'dist')),
  hostOrigin: readHostOrigin(),
  listenHost: readListenHost(),
  shutdownDelayMs: readShutdownDelay(),
});
