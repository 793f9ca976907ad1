/**
 * `npm run traffic`: visitors for a running staging (traffic.ts) until Ctrl-C, --minutes or
 * --visitors. Usage in traffic-options.ts.
 */
import { constants } from 'node:os';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'testbed/chromium';
import { ROOT_DIR } from '../support/test-env';
import { onStopSignals } from './stop-signals';
import { runTraffic } from './traffic';
import { parseTrafficArgs, TRAFFIC_USAGE, type TrafficArgs } from './traffic-options';
import { addOutcomes, describeMinute, describeRun, emptyOutcomes } from './traffic-stats';

function intro(args: TrafficArgs): string {
  return (
    `traffic: ${args.rate} visitors a minute to ${args.origin}` +
    (args.visitors ? `, ${args.visitors} in all` : '') +
    (args.minutes ? `, for ${args.minutes} min` : '') +
    (args.visitors || args.minutes ? ' (or until Ctrl-C)' : ', until Ctrl-C')
  );
}

async function run(args: TrafficArgs): Promise<number> {
  const stop = new AbortController();
  const removeHandlers = onStopSignals({
    first: (signal) => stop.abort(signal),
    again: (signal) => {
      console.log(`traffic: ${signal} again: leaving those under way`);
      process.exit(128 + constants.signals[signal]);
    },
  });
  const timer =
    args.minutes === undefined ? undefined : setTimeout(() => stop.abort(`${args.minutes} min`), args.minutes * 60_000);
  // Closed here once the visitors under way have finished, not by the signal that stops new ones.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  console.log(intro(args));
  const total = emptyOutcomes();
  let left = 0;
  try {
    left = await runTraffic(
      browser,
      args,
      stop.signal,
      {
        report: (minute, stats) => {
          addOutcomes(total, stats);
          console.log(describeMinute(minute, stats));
        },
        stopping: (count) => {
          console.log(
            `traffic: ${String(stop.signal.reason)}: no new visitors; waiting up to ${args.drainMs / 1000} s for the ${count} under way` +
              (count > 0 ? ' (Ctrl-C again to leave them)' : ''),
          );
        },
      },
      args.visitors,
    );
  } finally {
    clearTimeout(timer);
    await browser.close();
    removeHandlers();
  }
  console.log(describeRun(total, left));
  return 0;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseTrafficArgs(process.argv.slice(2), process.env.INIT_CWD || process.cwd(), ROOT_DIR);
  } catch (error) {
    console.error(`traffic: ${(error as Error).message}\n\n${TRAFFIC_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    console.log(TRAFFIC_USAGE);
    return 0;
  }
  return run(args);
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`traffic: ${error.message}`);
    process.exit(1);
  },
);
