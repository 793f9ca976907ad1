/**
 * Helpers for the fault-injection tests: the remote error state, the loading indicator, ports
 * that refuse or hang, the remotes' federation manifests, and a file changed for one test.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { errorPage } from './app-page';
import type { PageWatch } from './browser';
import { httpGetJson } from './http';
import { freePort } from './production';

/** The "Try again" button of the in-layout error page. */
export function retryButton(page: Page): Locator {
  return errorPage(page).getByRole('button', { name: 'Try again', exact: true });
}

/** The thin progress bar a route shows while its remote loads. */
export function loadingIndicator(page: Page): Locator {
  return page.getByRole('progressbar', { name: 'Loading page' }).first();
}

export interface ShownError {
  /** The status code, on the generic error page; none on "this part is unavailable". */
  code: string | undefined;
  title: string;
  message: string;
  /** The collapsed "Details" (its text, closed or not), where the page has one. */
  details: string | undefined;
  detailsOpen: boolean;
  /** The tab's title. */
  documentTitle: string;
}

/** Waits for the in-layout error page with a retry and gives what it shows. */
export async function waitForRetryableError(page: Page, timeoutMs = 20_000): Promise<ShownError> {
  try {
    await retryButton(page).waitFor({ timeout: timeoutMs });
  } catch (error) {
    const shown = await page.evaluate(() => document.body.innerText).catch(() => '(page gone)');
    throw new Error(
      `${page.url()} did not show the error page with "Try again": ${(error as Error).message}\npage shows: ${JSON.stringify(shown.slice(0, 500))}`,
    );
  }
  const error = errorPage(page);
  const code = error.locator('.p-error__code');
  const details = error.locator('details');
  const hasDetails = (await details.count()) > 0;
  return {
    code: (await code.count()) > 0 ? (await code.innerText()).trim() : undefined,
    title: (await error.locator('h1').innerText()).trim(),
    message: (await error.locator('.p-error__message').innerText()).trim(),
    details: hasDetails ? ((await details.textContent()) ?? '').trim() : undefined,
    detailsOpen: hasDetails && (await details.evaluate((element) => (element as HTMLDetailsElement).open)),
    documentTitle: await page.title(),
  };
}

/** Logs a scenario's document-load count for the report and gives it back. */
export function reportLoads(label: string, watch: PageWatch): number {
  const loads = watch.documentLoads();
  console.log(
    `[${label}] document loads:`,
    loads,
    watch.documents.map((load) => `${load.url} (${load.status ?? 'no response'})`).join(', '),
  );
  return loads;
}

/**
 * A port of this worker's block nothing listens on (connecting to it is refused): never one the
 * system hands out, which another worker could be given meanwhile (production.ts, `freePort`).
 */
export function closedPort(): Promise<number> {
  return freePort();
}

export interface ManifestEntry {
  name: string;
  assets?: { js?: { sync?: string[]; async?: string[] } };
}

export interface FederationManifest {
  metaData?: { remoteEntry?: { name?: string; path?: string } };
  exposes?: ManifestEntry[];
  shared?: ManifestEntry[];
  /** A remote's copies of shared modules, by module (the build's own field). */
  sharedFallbacks?: { shared?: Record<string, { js?: string[] }> };
}

export function fetchManifest(manifestUrl: string): Promise<FederationManifest> {
  return httpGetJson<FederationManifest>(manifestUrl);
}

/** The absolute URLs of a manifest entry's synchronous JS files, resolved beside the manifest. */
export function syncFiles(entry: ManifestEntry | undefined, manifestUrl: string): string[] {
  return (entry?.assets?.js?.sync ?? []).map((file) => new URL(file, manifestUrl).toString());
}

/**
 * Writes `content` beside `path` and renames it over, as a deploy publishes a file: a server
 * answering it meanwhile sends the old bytes or the new, never the new cut to the old length.
 */
function replaceFile(path: string, content: string | Buffer): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}

/** Keeps a file's bytes so a test can change it and put it back (in a finally or afterAll). */
export function keepFile(path: string): { original: string; write(content: string): void; restore(): void } {
  const original = readFileSync(path);
  return {
    original: original.toString('utf8'),
    write(content) {
      replaceFile(path, content);
    },
    restore() {
      replaceFile(path, original);
    },
  };
}

/**
 * A server's log since its latest start (from the `starting <name>` marker on), including what
 * it printed before exiting.
 */
export function logSinceLastStart(logFile: string, name: string): string {
  const log = readFileSync(logFile, 'utf8');
  const start = log.lastIndexOf(` starting ${name} on port`);
  return start === -1 ? log : log.slice(start);
}
