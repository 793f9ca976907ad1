/** Serves this remote's build as a static host or CDN would. */
import { join } from 'node:path';
import { parseEnvOrExit, staticPartEnv } from 'server/env';
import { serveRemoteDist } from 'server/static-part';
import { REMOTE_NAME, REMOTE_SPEC } from '../remote-spec';

// One schema for every variable: a bad one stops it with a message naming it.
const part = { name: REMOTE_NAME, port: REMOTE_SPEC.port, portEnv: REMOTE_SPEC.portEnv };
const env = parseEnvOrExit('remote-__name__', staticPartEnv(part, join(__dirname, '..', 'dist')));
void serveRemoteDist('remote-__name__', env);
