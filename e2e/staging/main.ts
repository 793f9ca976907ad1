/**
 * `npm run staging`: a one-machine rehearsal of a release (start.ts), up until Ctrl-C or SIGTERM,
 * which stop every process it started; `npm run staging -- sample` makes a gift and a redeem
 * session on a running one and prints the gate's paths. Usage in options.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTE_NAMES } from 'shared/remotes';
import { ROOT_DIR } from '../support/test-env';
import { describeStaging, STAGING_FILE, type StagingInfo } from './hints';
import { parseStagingArgs, USAGE } from './options';
import { makeSample, pathArgs } from './sample';
import { startStaging } from './start';

const cwd = process.env.INIT_CWD || process.cwd();

function readInfo(dir: string): StagingInfo {
  const file = join(dir, STAGING_FILE);
  if (!existsSync(file)) throw new Error(`${file} not found: start staging first (npm run staging), or give --url`);
  return JSON.parse(readFileSync(file, 'utf8')) as StagingInfo;
}

async function sample(dir: string, url: string | undefined): Promise<number> {
  const origin = url ?? readInfo(dir).origin;
  const ids = await makeSample(origin);
  console.log(`staging: a gift and a redeem session on ${origin}; the gate's and the release's paths:`);
  for (const remote of REMOTE_NAMES) {
    const paths = pathArgs(remote, ids).trim();
    if (paths) console.log(`  ${remote.padEnd(8)} ${paths}`);
  }
  return 0;
}

/** Runs until SIGINT or SIGTERM; then stops everything and says whether anything is left listening. */
async function start(dir: string, ports: Parameters<typeof startStaging>[1]): Promise<number> {
  // The processes it starts do not hold this one's event loop open: a timer does, until a signal.
  const alive = setInterval(() => undefined, 60_000);
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => resolve(signal));
  }).finally(() => clearInterval(alive));
  console.log(`staging: starting in ${dir} on ports from ${ports.nginx}…`);
  const started = Date.now();
  const starting = startStaging(dir, ports);
  const first = await Promise.race([starting, signalled]);
  if (typeof first === 'string') {
    // PostgreSQL runs detached: whatever did start is stopped before this process goes.
    console.error(`staging: ${first} while starting: stopping what started…`);
    await (await starting.catch(() => undefined))?.stop();
    return 1;
  }
  const ids = await makeSample(first.info.origin).catch(async (error: Error) => {
    await first.stop();
    throw new Error(`the sample could not be made, so everything was stopped: ${error.message}`);
  });
  for (const line of describeStaging(first.info, ids, cwd)) console.log(line);
  console.log(`staging: ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const signal = await signalled;
  console.log(`staging: ${signal}: stopping every process…`);
  const left = await first.stop();
  if (left.length > 0) {
    console.error(`staging: still listening after the stop: port ${left.join(', ')}`);
    return 1;
  }
  console.log('staging: stopped; nothing it started is listening');
  return 0;
}

async function main(): Promise<number> {
  let command;
  try {
    command = parseStagingArgs(process.argv.slice(2), cwd, ROOT_DIR);
  } catch (error) {
    console.error(`staging: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (command.command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (command.command === 'sample') return sample(command.dir, command.url);
  return start(command.dir, command.ports);
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`staging: ${error.message}`);
    process.exit(1);
  },
);
