/**
 * `npm run deploy -w <remote> -- <target folder>`: publishes the package's dist/ into the target
 * (see deploy.ts), or stages, makes current or revokes a build (deploy-command.ts). npm runs
 * scripts in the package folder and keeps the caller's folder in INIT_CWD, so a relative target
 * means what it meant where the command was typed.
 */
import { runDeployCli } from './deploy-command';

void runDeployCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
