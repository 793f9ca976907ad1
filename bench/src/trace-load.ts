/**
 * `npm run bench:trace -w bench -- [/route] [--runs N] [--origin URL]`: cold loads of one page
 * under the bench's throttling (browser.ts), each with Chrome's performance trace, saved in
 * bench/.work/traces/ (open one in DevTools' Performance panel), and a summary of where the
 * renderer's main thread spent the time between the document's last byte and the first
 * contentful paint (trace-summary.ts). Without --origin it serves the federated build's copy
 * the last bench run left in bench/.work/run/ (ports 5300-5304, as the bench: not while one
 * runs); the empty page (empty-page.ts) with `--origin empty`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { stopAll } from 'testbed/process';
import { CONSOLE, defineCommand, exitStatusOf, refuse, runMain, type CommandLine } from '../../deploy/command-line';
import { launchBrowser, openThrottledPage } from './browser';
import { serveEmptyPage } from './empty-page';
import { WORK_DIR } from './paths';
import { positiveInt } from './args';
import { FEDERATED_ORIGIN, originAt, PORTS, startServers } from './servers';
import { summarizeTrace, type TraceEvent } from './trace-summary';

const TRACE_DIR = join(WORK_DIR, 'traces');
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink.user_timing',
  'loading',
  'navigation',
  'toplevel',
  'v8.execute',
  'blink',
];

const USAGE = `Usage: npm run bench:trace -w bench -- [/route] [--runs N] [--origin URL|empty]

  /route           the page to load (default /)
  --runs N         cold loads, each traced (default 1)
  --origin URL     where the page is served (default: the federated build's copy in
                   bench/.work/run/); empty serves the empty page
  -h, --help       this text`;

const OPTIONS = { runs: { type: 'string' }, origin: { type: 'string' } } as const;

interface Options {
  route: string;
  runs: number;
  origin: string | undefined;
}

function optionsOf({ values, positionals }: CommandLine<typeof OPTIONS>): Options {
  const [route = '/', ...rest] = positionals;
  if (!route.startsWith('/') || rest.length > 0)
    refuse(`give one route, a path such as /game; got ${positionals.join(' ')}`);
  return { route, runs: values.runs === undefined ? 1 : positiveInt('--runs', values.runs), origin: values.origin };
}

/** One traced cold load: the trace's file, and the page's own document and FCP times. */
async function tracedLoad(url: string, file: string): Promise<void> {
  const browser = await launchBrowser();
  try {
    const { page, close } = await openThrottledPage(browser, 'body', []);
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(url, { waitUntil: 'load', timeout: 90_000 });
    const timings = await page.evaluate(
      () =>
        new Promise<{ responseEnd: number; fcp: number }>((resolve) => {
          new PerformanceObserver((list) => {
            const fcp = list.getEntries().find((entry) => entry.name === 'first-contentful-paint');
            const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
            if (fcp && navigation) resolve({ responseEnd: navigation.responseEnd, fcp: fcp.startTime });
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const trace = await browser.stopTracing();
    await close();
    writeFileSync(file, trace);
    const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const summary = summarizeTrace(events, url, timings.responseEnd);
    console.log(
      `${file}\n  document's last byte ${Math.round(timings.responseEnd)} ms, FCP ${Math.round(timings.fcp)} ms`,
    );
    console.log(`  the main thread from the last byte to FCP (${Math.round(summary.fcp - timings.responseEnd)} ms):`);
    for (const { kind, ms } of summary.busy) console.log(`    ${kind.padEnd(36)} ${ms.toFixed(0).padStart(5)} ms`);
    console.log(`    ${'idle'.padEnd(36)} ${summary.idle.toFixed(0).padStart(5)} ms`);
  } finally {
    await browser.close();
  }
}

async function main(options: Options): Promise<void> {
  let emptyPage: Server | undefined;
  let origin = options.origin;
  if (origin === 'empty') {
    emptyPage = await serveEmptyPage(PORTS.emptyPage);
    origin = originAt(PORTS.emptyPage);
  } else if (origin === undefined) {
    await startServers(['federated']);
    origin = FEDERATED_ORIGIN;
  }
  mkdirSync(TRACE_DIR, { recursive: true });
  try {
    const name = options.route.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '') || 'home';
    for (let run = 1; run <= options.runs; run += 1) {
      await tracedLoad(`${origin}${options.route}`, join(TRACE_DIR, `${name}-${run}.json`));
    }
  } finally {
    emptyPage?.close();
    await stopAll();
  }
}

runMain(
  defineCommand({
    name: 'bench:trace',
    summary: 'traced cold loads of one page',
    usage: USAGE,
    options: OPTIONS,
    run: (line) => exitStatusOf('bench:trace', main(optionsOf(line))),
  }),
  CONSOLE,
);
