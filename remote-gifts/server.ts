/**
 * Serves this remote's production build (or the folder in STATIC_ROOT, such as a deploy target),
 * as a static host or CDN would, for the host's origin.
 */
import { join } from 'node:path';
import { readHostOrigin, readPort, readStaticRoot } from 'shared/node/env';
import { serveRemoteDist } from 'shared/node/serve';

void serveRemoteDist('remote-gifts', readPort('gifts'), readStaticRoot(join(__dirname, 'dist')), readHostOrigin());
