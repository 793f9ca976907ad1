/**
 * `npm run gate -w <remote> -- <target folder> <build id> --host <URL>`: checks a staged build on
 * the production host before it is made current (see gate.ts). The remote's preview key comes
 * from PREVIEW_KEY. A relative target is taken from where the command was typed (npm's INIT_CWD).
 * SIGINT and SIGTERM stop it, the browser closed, deciding nothing.
 */
import { runGateCli } from './gate';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

void runGateCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  env: process.env,
  signal: stop.signal,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
