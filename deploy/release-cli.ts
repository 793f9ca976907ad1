/**
 * `npm run release -w <remote> -- <target folder> --host <URL> --prometheus <URL>`: stages, gates,
 * steps and promotes (or aborts) a build of the remote as a canary, holding the deployment's lock
 * throughout (see release.ts). The gate's key comes from PREVIEW_KEY. A relative target is taken
 * from where the command was typed (npm's INIT_CWD). SIGINT and SIGTERM stop the run where it is,
 * the lock released.
 */
import { runReleaseCli } from './release';
import { runUnlessStale } from './stale-dist';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`release: ${signal}: stopping where it is`);
    stop.abort();
  });
}

const io = {
  cwd: process.env.INIT_CWD || process.cwd(),
  packageDir: process.cwd(),
  env: process.env,
  signal: stop.signal,
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
};
void runUnlessStale(process.argv.slice(2), io, 'release', (argv) => runReleaseCli(argv, io)).then((code) => {
  process.exitCode = code;
});
