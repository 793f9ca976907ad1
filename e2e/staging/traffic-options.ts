/** `npm run traffic`'s command line. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { STAGING_FILE, type StagingInfo } from './hints';
import { DEFAULT_DIR, stagingDir } from './options';

export const DEFAULT_RATE = 12;
export const DEFAULT_CONCURRENCY = 4;
/** Once stopped, how long the visitors under way may take: a whole journey, each step well inside its timeout. */
export const DEFAULT_DRAIN_SECONDS = 60;

export const TRAFFIC_USAGE = `usage: npm run traffic -- [--url <site>] [--rate <visitors a minute>] [--minutes <n>] [--visitors <n>]
         [--concurrency <n>] [--drain <seconds>] [--dir <staging folder>]

Sends visitors to the site, each a fresh headless Chromium context (a fresh cohort cookie, an
address of its own): they open /, play the game, open their gift, redeem it and see the voucher,
then leave the page, which sends its telemetry; a visitor who meets the error page leaves there.
Prints a line a minute: the visitors who started in it, those who finished in it (reached a
voucher, or met errors), those still under way at its end. Runs until Ctrl-C (or SIGTERM), for
--minutes, or until --visitors have come and finished; once stopped, it starts no visitor more,
waits --drain seconds at most for those under way, prints the last minute and the whole run and
exits 0. A second Ctrl-C leaves those under way at once.
  --url <site>          the site (default: the one <staging folder>/staging.json names)
  --dir <folder>        the staging folder (default ${DEFAULT_DIR}/ at the repository root)
  --rate <n>            new visitors a minute (default ${DEFAULT_RATE})
  --minutes <n>         stop after this long (default: until Ctrl-C)
  --visitors <n>        stop after this many have come and finished
  --concurrency <n>     visitors at once at most (default ${DEFAULT_CONCURRENCY}); past it, arrivals wait
  --drain <seconds>     once stopped, how long those under way may take (default ${DEFAULT_DRAIN_SECONDS})`;

export interface TrafficArgs {
  origin: string;
  rate: number;
  concurrency: number;
  drainMs: number;
  minutes?: number;
  visitors?: number;
}

function positive(name: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}"`);
  return value;
}

/** The site: `--url`, else the running staging's (its staging.json). */
function siteOrigin(url: string | undefined, dir: string): string {
  if (url !== undefined) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--url ${url} is not http(s)`);
    return parsed.origin;
  }
  const file = join(dir, STAGING_FILE);
  if (!existsSync(file)) throw new Error(`no --url, and no staging running (${file} not found): npm run staging first`);
  return (JSON.parse(readFileSync(file, 'utf8')) as StagingInfo).origin;
}

/** Reads the command line; throws with the problem (the caller prints TRAFFIC_USAGE). */
export function parseTrafficArgs(argv: readonly string[], cwd: string, rootDir: string): TrafficArgs | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      dir: { type: 'string' },
      rate: { type: 'string' },
      minutes: { type: 'string' },
      visitors: { type: 'string' },
      concurrency: { type: 'string' },
      drain: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  return {
    rate: positive('rate', values.rate, false) ?? DEFAULT_RATE,
    concurrency: positive('concurrency', values.concurrency, true) ?? DEFAULT_CONCURRENCY,
    drainMs: (positive('drain', values.drain, false) ?? DEFAULT_DRAIN_SECONDS) * 1000,
    minutes: positive('minutes', values.minutes, false),
    visitors: positive('visitors', values.visitors, true),
    origin: siteOrigin(values.url, stagingDir(values.dir, cwd, rootDir)),
  };
}
