/**
 * `npm run canary -w <remote> -- <target folder> <action>`: starts, steps, promotes or aborts a
 * canary build of the remote in the target (see canary.ts). A relative target is taken from
 * where the command was typed (npm's INIT_CWD), as the deploy command does.
 */
import { runCanaryCli } from './canary';

void runCanaryCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
