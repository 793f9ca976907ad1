/** Serves this remote's build as a static host or CDN would. */
import { join } from 'node:path';
import { parseEnvOrExit, staticPartEnv } from 'server/env';
import { serveRemoteDist } from 'server/static-part';

// One schema for every variable: a bad one stops it with a message naming it.
const env = parseEnvOrExit('remote-gifts', staticPartEnv('gifts', join(__dirname, '..', 'dist')));
void serveRemoteDist('remote-gifts', env);
