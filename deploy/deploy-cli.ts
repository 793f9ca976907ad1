/**
 * `npm run deploy -w <remote> -- <target folder>`: publishes the package's dist/ into the target
 * (see deploy.ts), or stages, makes current or revokes a build (deploy-command.ts). npm runs
 * scripts in the package folder and keeps the caller's folder in INIT_CWD, so a relative target
 * means what it meant where the command was typed.
 */
import { runDeployCli } from './deploy-command';
import { runUnlessStale } from './stale-dist';

const io = {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
};
void runUnlessStale(process.argv.slice(2), io, 'deploy', (argv) => runDeployCli(argv, io)).then((code) => {
  process.exitCode = code;
});
