/**
 * Ctrl-C on `npm run traffic` (SIGINT to its process group, as a terminal sends it, to one Node
 * process with tsx's loader, as its npm script runs it): no visitor more, those under way finish, the last minute and the
 * whole run are printed, exit 0; a second Ctrl-C leaves at once. A real child process, a real
 * Chromium, a loopback stand-in site whose game page is held until the test lets it go.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ROOT_DIR } from '../support/test-env';
import { startStandInSite, type StandInSite } from './stand-in-site';
import { onStopSignals, SAME_SIGNAL_MS } from './stop-signals';

jest.setTimeout(120_000);

interface Traffic {
  child: ChildProcess;
  output: () => string;
  /** Settles once `pattern` is in the output. */
  printed(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

function startTraffic(url: string, extra: string[] = []): Traffic {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'staging/traffic-main.ts', '--url', url, '--rate', '600', '--concurrency', '1', ...extra],
    { cwd: join(ROOT_DIR, 'e2e'), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const watcher of watchers) if (watcher.pattern.test(output)) watcher.resolve();
    });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    printed: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(output)) resolve();
        else watchers.push({ pattern, resolve });
        void exited.then(() => reject(new Error(`traffic exited before printing ${pattern}:\n${output}`)));
      }),
    exited,
  };
}

/** Ctrl-C in a terminal: SIGINT to the foreground process group. */
const interrupt = (traffic: Traffic) => process.kill(-(traffic.child.pid ?? 0), 'SIGINT');

let site: StandInSite | undefined;
let running: Traffic | undefined;
afterEach(async () => {
  if (running?.child.exitCode === null && running.child.signalCode === null)
    process.kill(-(running.child.pid ?? 0), 'SIGKILL');
  site?.release();
  await site?.close();
  site = running = undefined;
});

describe('npm run traffic on Ctrl-C', () => {
  it('starts no visitor more, lets the one under way finish, prints the last minute and the run, and exits 0', async () => {
    site = await startStandInSite({ game: 'error-page', hold: true });
    const traffic = (running = startTraffic(site.url));
    await site.gameRequested;
    interrupt(traffic);
    await traffic.printed(/traffic: SIGINT: no new visitors; waiting up to 60 s for the 1 under way/);
    site.release();
    expect(await traffic.exited).toBe(0);
    const output = traffic.output();
    expect(output).toMatch(
      /traffic: minute 1: started 1, finished 1 \(0 reached a voucher, 1 met errors, 1 of them the error page; first: met the error page \(500\) at \/game: [^)]*\), 0 under way, 1 came late/,
    );
    expect(output).toContain('traffic: in all: started 1, finished 1 (0 reached a voucher, 1 met errors');
    expect(output).not.toContain('still under way were left');
  });

  it('leaves those under way once --drain has passed, and still exits 0', async () => {
    site = await startStandInSite({ game: 'error-page', hold: true });
    const traffic = (running = startTraffic(site.url, ['--drain', '1']));
    await site.gameRequested;
    interrupt(traffic);
    expect(await traffic.exited).toBe(0);
    expect(traffic.output()).toMatch(/traffic: minute 1: started 1, finished 0 \(0 reached a voucher\), 1 under way/);
    expect(traffic.output()).toContain(
      'traffic: in all: started 1, finished 0 (0 reached a voucher); 1 still under way were left',
    );
  });

  it('leaves at once on a second Ctrl-C', async () => {
    site = await startStandInSite({ game: 'error-page', hold: true });
    const traffic = (running = startTraffic(site.url));
    await site.gameRequested;
    interrupt(traffic);
    await traffic.printed(/no new visitors/);
    // A later Ctrl-C, not the first one arriving again.
    await delay(SAME_SIGNAL_MS);
    interrupt(traffic);
    expect(await traffic.exited).toBe(130);
    expect(traffic.output()).toContain('traffic: SIGINT again: leaving those under way');
    expect(traffic.output()).not.toContain('traffic: in all');
  });
});

describe('stop signals', () => {
  it('takes signals within SAME_SIGNAL_MS of the first as that one, and a later one as a second', () => {
    let now = 1_000;
    const seen: string[] = [];
    const remove = onStopSignals(
      { first: (signal) => seen.push(`first ${signal}`), again: (signal) => seen.push(`again ${signal}`) },
      () => now,
    );
    try {
      process.emit('SIGINT', 'SIGINT');
      now += SAME_SIGNAL_MS - 1;
      process.emit('SIGINT', 'SIGINT');
      now += 1;
      process.emit('SIGTERM', 'SIGTERM');
    } finally {
      remove();
    }
    expect(seen).toEqual(['first SIGINT', 'again SIGTERM']);
  });
});
