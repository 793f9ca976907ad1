/**
 * The bench still measures: `npm run bench -- --check`, its smoke run (one cold load of
 * /redeem/{id} for the federated build and both monoliths, client- and server-rendered, one warm
 * navigation, one of each interaction and a short throughput run), on the builds
 * this run made, under the strict Content-Security-Policy the pages send. A bench that stops
 * measuring (a probe the policy refuses, a figure gone missing) exits non-zero and fails here.
 * Its own servers are on 5300-5399 (bench/src/servers.ts), so only one runs at a time.
 */
import { API_DATA_TEMPLATE } from '../support/api-data';
import { expect, test } from '../support/fixtures';
import { runCommand } from '../support/repo-copy';
import { ROOT_DIR } from '../support/test-env';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// The bench starts its own servers and browser: none of the suite's.
test.use({ serverOptions: { only: [] } });

test('the bench measures every build of one page, cold and warm, and says so', async () => {
  // It builds the monolith (15 s on a quiet machine) and starts an API on a new database.
  test.setTimeout(300_000);
  // Its API starts on a copy of the run's initialised PGlite cluster, as the workers' APIs do.
  const result = await runCommand(NPM, ['run', '--silent', 'bench', '--', '--check'], ROOT_DIR, {
    ...process.env,
    BENCH_API_DATA_TEMPLATE: API_DATA_TEMPLATE,
  });
  await test.info().attach('bench output', { body: result.output, contentType: 'text/plain' });
  const tail = result.output.trimEnd().split('\n').slice(-40).join('\n');
  expect(result.exitCode, `npm run bench -- --check failed; its output ends:\n${tail}`).toBe(0);
  expect(result.output).toContain('check passed');
});
