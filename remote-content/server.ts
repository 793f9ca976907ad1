/** Serves this remote's production build, as a static host or CDN would, for the host's origin. */
import { join } from 'node:path';
import { readHostOrigin, readPort } from 'shared/node/env';
import { serveRemoteDist } from 'shared/node/serve';

void serveRemoteDist('remote-content', readPort('content'), join(__dirname, 'dist'), readHostOrigin());
