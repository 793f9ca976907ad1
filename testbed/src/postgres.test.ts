/** The throwaway cluster goes with the process that started it, however that process ends. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { stopLeftCluster } from './postgres';
import { isRunning } from './process-tree';

// initdb and a server start, on a machine busy with other suites.
jest.setTimeout(60_000);

test('a cluster whose test process is killed outright stops too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-test-pg-killed-'));
  // A test worker that starts a cluster, says so, then is killed with SIGKILL (a jest timeout, kill -9).
  const starter = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `require(${JSON.stringify(join(__dirname, 'postgres.ts'))}).startCluster({ dir: ${JSON.stringify(dir)} })` +
        `.then(() => console.log('started'), (error) => { console.error(error); process.exit(1); });` +
        'setInterval(() => undefined, 60_000);',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    let said = '';
    starter.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    while (!said.includes('started')) {
      if (starter.exitCode !== null) throw new Error(`the starter exited (${starter.exitCode})`);
      await once(starter.stdout, 'data');
    }
    const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(isRunning(postmaster)).toBe(true);
    starter.kill('SIGKILL');
    while (isRunning(postmaster)) await delay(100);
  } finally {
    starter.kill('SIGKILL');
    await stopLeftCluster(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});
