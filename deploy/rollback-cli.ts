/**
 * `npm run rollback -w <remote or host> -- <target folder> [<build id>]`: makes an earlier build
 * current again in the target (see rollback.ts), in the package's folder layout (deploy-layout.ts).
 * A relative target is taken from where the command was typed (npm's INIT_CWD), as the deploy
 * command does.
 */
import { runRollbackCli } from './rollback';

void runRollbackCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => {
  process.exitCode = code;
});
