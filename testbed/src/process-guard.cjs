'use strict';
/**
 * Runs one command inside the guard's own process group (process.ts spawns the guard detached,
 * with `exitWithParent`, so it leads the group) and takes the whole group down when the process
 * that started it goes away (a test worker, the bench), even when that process was killed
 * outright: its IPC channel to the guard then closes.
 *
 *   node process-guard.cjs <command> [args...]
 *
 * To stop the command, its starter signals the whole group (`process.kill(-pid)`), so the
 * command gets the signal directly; the guard only waits for it and forces it after a while.
 */
const { spawn } = require('node:child_process');
const { constants } = require('node:os');

const FORCE_AFTER_MS = 5000;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node process-guard.cjs <command> [args...]');
  process.exit(2);
}

let forceTimer;
function killGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function forceLater() {
  if (forceTimer === undefined) forceTimer = setTimeout(() => killGroup('SIGKILL'), FORCE_AFTER_MS);
}

const child = spawn(command, args, { stdio: 'inherit' });
child.on('error', (error) => {
  console.error(`[process-guard] cannot run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  clearTimeout(forceTimer);
  if (signal) console.error(`[process-guard] the server ended on ${signal}`);
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});

function onSignal(signal) {
  console.error(`[process-guard] ${signal}: stopping`);
  forceLater();
}
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);
process.on('disconnect', () => {
  console.error('[process-guard] the test process went away: stopping');
  forceLater();
  killGroup('SIGTERM');
});
