/**
 * Serves this remote's production build (or the folder in STATIC_ROOT, such as a deploy target),
 * as a static host or CDN would, for the host's origin. `npm run serve -w remote-content` runs its
 * bundle, `dist-server/main.js`; from there, as from `server/`, the build is `../dist`.
 */
import { join } from 'node:path';
import { parseEnvOrExit, staticPartEnv } from 'server/env';
import { serveRemoteDist } from 'server/static-part';

// Every variable it reads, through one schema: a bad one stops it with a message naming it.
const env = parseEnvOrExit('remote-content', staticPartEnv('content', join(__dirname, '..', 'dist')));
void serveRemoteDist('remote-content', env);
