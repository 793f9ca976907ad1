/**
 * `npm run bench:page-compression -w bench [-- --runs N]`: what brotli costs for the largest page
 * the host's server sends. It starts the built host and remotes (host-with-remotes.ts), takes
 * each prerendered route's page as a visitor gets it (uncompressed), and for the largest one
 * prints, for each brotli quality from 4 to 11 and for gzip's best level, the median time of N
 * compressions on this machine (in this process, one at a time) and the bytes they give.
 * The host's server compresses a page made for one request with the quality whose time fits the
 * budget for it, and a page it keeps with a higher one, paid once per page kept (server/src/prepared-body.ts).
 */
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { REMOTE_NAMES, REMOTES, type RemoteSpec } from 'shared/remotes';
import { CONSOLE, defineCommand, exitStatusOf, refuse, runMain, type CommandLine } from '../../deploy/command-line';
import { brotliParams } from 'server/encoding';
import { BROTLI_QUALITY_KEPT, BROTLI_QUALITY_ON_THE_FLY } from 'server/prepared-body';
import { median } from 'testbed/stats';
import { startHostWithRemotes } from './host-with-remotes';

/** The routes whose pages carry their remote's prerendered markup, from the registry of remotes. */
function prerenderedPaths(): string[] {
  return REMOTE_NAMES.flatMap((name) =>
    Object.values((REMOTES[name] as RemoteSpec).exposes).flatMap(({ routes }) =>
      routes.filter((route) => route.prerendered).map((route) => route.path),
    ),
  );
}

const USAGE = `Usage: npm run bench:page-compression -w bench -- [--runs N]

  --runs N     compressions per quality, the median printed (default 15)
  -h, --help   this text`;

const OPTIONS = { runs: { type: 'string' } } as const;

function runsOf({ values, positionals }: CommandLine<typeof OPTIONS>): number {
  if (positionals.length > 0) refuse(`unexpected argument ${positionals[0]}`);
  if (values.runs === undefined) return 15;
  if (!/^\d+$/.test(values.runs)) refuse(`--runs takes a whole number, got "${values.runs}"`);
  return Number(values.runs);
}

function medianMs(runs: number, work: () => Buffer): { ms: number; bytes: number } {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    bytes = work().length;
    times.push(performance.now() - start);
  }
  return { ms: median(times) ?? NaN, bytes };
}

/** As the host's server compresses a page (static-server.ts), at `quality`. */
const brotli = (page: Buffer, quality: number) => () =>
  brotliCompressSync(page, { params: brotliParams(page.length, quality) });

async function main(runs: number): Promise<void> {
  const host = await startHostWithRemotes();
  const pages: Array<{ path: string; page: Buffer }> = [];
  try {
    for (const path of prerenderedPaths()) {
      const response = await fetch(`${host.origin}${path}`, { headers: { accept: 'text/html' } });
      pages.push({ path, page: Buffer.from(await response.arrayBuffer()) });
    }
  } finally {
    await host.stop();
  }
  pages.sort((a, b) => b.page.length - a.page.length);
  console.log(`pages: ${pages.map(({ path, page }) => `${path} ${(page.length / 1024).toFixed(1)} KB`).join(', ')}`);
  const [largest] = pages;
  if (!largest) throw new Error('no prerendered route');
  console.log(`largest: ${largest.path}, ${largest.page.length} bytes; median of ${runs} compressions each`);
  console.log('encoding      ms   bytes  ratio');
  for (let quality = 4; quality <= 11; quality += 1) {
    const { ms, bytes } = medianMs(runs, brotli(largest.page, quality));
    const chosen =
      quality === BROTLI_QUALITY_ON_THE_FLY ? '  on the fly' : quality === BROTLI_QUALITY_KEPT ? '  kept pages' : '';
    const ratio = (bytes / largest.page.length).toFixed(3);
    console.log(
      `br ${String(quality).padStart(2)}  ${ms.toFixed(2).padStart(7)}  ${String(bytes).padStart(6)}  ${ratio}${chosen}`,
    );
  }
  const gzip = medianMs(runs, () => gzipSync(largest.page, { level: constants.Z_BEST_COMPRESSION }));
  console.log(
    `gzip 9  ${gzip.ms.toFixed(2).padStart(7)}  ${String(gzip.bytes).padStart(6)}  ${(gzip.bytes / largest.page.length).toFixed(3)}`,
  );
}

if (require.main === module) {
  runMain(
    defineCommand({
      name: 'bench:page-compression',
      summary: 'what brotli costs for the largest page',
      usage: USAGE,
      options: OPTIONS,
      run: (line) => exitStatusOf('bench:page-compression', main(runsOf(line))),
    }),
    CONSOLE,
  );
}
