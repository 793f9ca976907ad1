/**
 * `npm run gate -w <remote> -- <target folder> <build id> --host <URL>`: checks a staged build on
 * the production host before it is made current (see gate.ts). The remote's preview key comes
 * from PREVIEW_KEY. A relative target is taken from where the command was typed (npm's INIT_CWD).
 */
import { runGateCli } from './gate';

void runGateCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
