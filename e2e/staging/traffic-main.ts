/**
 * `npm run traffic`: visitors for a running staging (traffic.ts) until Ctrl-C, --minutes or
 * --visitors. Usage in traffic-options.ts.
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'testbed/chromium';
import { ROOT_DIR } from '../support/test-env';
import { describeMinute, runTraffic } from './traffic';
import { parseTrafficArgs, TRAFFIC_USAGE } from './traffic-options';

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
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.log(`traffic: ${signal}: no new visitors; waiting for those under way`);
      stop.abort();
    });
  const timer = args.minutes === undefined ? undefined : setTimeout(() => stop.abort(), args.minutes * 60_000);
  // Closed here once the visitors under way have finished, not by the signal that stops new ones.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  console.log(
    `traffic: ${args.rate} visitors a minute to ${args.origin}` +
      (args.visitors ? `, ${args.visitors} in all` : '') +
      (args.minutes ? `, for ${args.minutes} min` : '') +
      (args.visitors || args.minutes ? ' (or until Ctrl-C)' : ', until Ctrl-C'),
  );
  let visitors = 0;
  let errors = 0;
  try {
    await runTraffic(
      browser,
      args,
      stop.signal,
      (minute, stats) => {
        visitors += stats.visitors;
        errors += stats.withErrors;
        console.log(describeMinute(minute, stats));
      },
      args.visitors,
    );
  } finally {
    clearTimeout(timer);
    await browser.close();
  }
  console.log(`traffic: ${visitors} visitors, ${errors} met errors`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`traffic: ${error.message}`);
    process.exit(1);
  },
);
