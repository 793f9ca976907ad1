/**
 * Serves this remote's production build (or the folder in STATIC_ROOT, such as a deploy target),
 * as a static host or CDN would, for the host's origin. `npm run serve -w remote-__name__` runs its
 * bundle, `dist-server/main.js`; from there, as from `server/`, the build is `../dist`.
 */
import { join } from 'node:path';
import { parseEnvOrExit, staticPartEnv } from 'server/env';
import { serveRemoteDist } from 'server/static-part';
import { REMOTE_NAME, REMOTE_SPEC } from '../remote-spec';

// Every variable it reads, through one schema: a bad one stops it with a message naming it. Its
// port is its spec's, moved by REMOTE___NAME___PORT.
const part = { name: REMOTE_NAME, port: REMOTE_SPEC.port, portEnv: REMOTE_SPEC.portEnv };
const env = parseEnvOrExit('remote-__name__', staticPartEnv(part, join(__dirname, '..', 'dist')));
void serveRemoteDist('remote-__name__', env);
