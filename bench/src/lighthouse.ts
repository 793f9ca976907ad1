/** `--lighthouse`: Lighthouse's CLI, mobile preset, performance only, against a chromium the bench starts. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { BENCH_DIR, LOG_DIR, ROOT_DIR } from './paths';
import { runToEnd } from './processes';

export interface LighthouseScores {
  performance: number;
  fcp: number;
  lcp: number;
  tbt: number;
  speedIndex: number;
}

export function findLighthouse(): string | undefined {
  return [BENCH_DIR, ROOT_DIR]
    .map((dir) => join(dir, 'node_modules', '.bin', 'lighthouse'))
    .find((bin) => existsSync(bin));
}

export async function launchForLighthouse(port: number): Promise<Browser> {
  const browser = await launchBrowser([`--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1']);
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return browser;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await browser.close();
      throw new Error(`chromium did not open its DevTools port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface LighthouseResult {
  categories?: { performance?: { score?: number | null } };
  audits?: Record<string, { numericValue?: number }>;
  runtimeError?: { code?: string; message?: string };
}

export async function runLighthouse(
  bin: string,
  url: string,
  options: { port: number; name: string; blockedOrigins: readonly string[] },
): Promise<LighthouseScores> {
  const { port, name } = options;
  const output = join(LOG_DIR, `${name}.json`);
  await runToEnd(
    name,
    bin,
    [
      url,
      `--port=${port}`,
      '--hostname=127.0.0.1',
      '--only-categories=performance',
      '--output=json',
      `--output-path=${output}`,
      '--max-wait-for-load=60000',
      '--quiet',
      ...options.blockedOrigins.map((origin) => `--blocked-url-patterns=${origin}/*`),
    ],
    { cwd: ROOT_DIR },
  );
  const result = JSON.parse(readFileSync(output, 'utf8')) as LighthouseResult;
  const score = result.categories?.performance?.score;
  if (typeof score !== 'number') {
    throw new Error(
      `Lighthouse gave no performance score for ${url}: ${result.runtimeError?.message ?? 'see ' + output}`,
    );
  }
  const audit = (id: string) => result.audits?.[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round(score * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    speedIndex: audit('speed-index'),
  };
}
