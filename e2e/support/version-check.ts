/**
 * The page's version check, as a browser test sees it: the host's server tells each page which
 * build of each remote it should run (`GET /remote-builds.json`, per visitor), and the page
 * polls that answer every `BUILD_CHECK_INTERVAL_MS`. A test waits for an answer naming a build,
 * or holds the polls while it deploys, so it decides when the page may see the change.
 */
import type { Page, Response, Route } from '@playwright/test';

/** Where the page's version check asks (shared/deployment's REMOTE_BUILDS_PATH). */
export const REMOTE_BUILDS_PATH = '/remote-builds.json';

export function isBuildsRequest(url: string): boolean {
  return new URL(url).pathname === REMOTE_BUILDS_PATH;
}

/** The page's next answer of its version check that names build `id` for `remote`. */
export function nextBuildsAnswer(page: Page, remote: string, id: string, timeout = 20_000): Promise<Response> {
  return page.waitForResponse(
    async (response) =>
      isBuildsRequest(response.url()) &&
      response.ok() &&
      ((await response.json()) as { builds?: Record<string, string> }).builds?.[remote] === id,
    { timeout },
  );
}

/** Holds the page's version-check polls while closed; `close` resolves once a poll is held. */
export async function versionCheckGate(page: Page) {
  let gate: Promise<void> | undefined;
  let release = () => undefined as void;
  let onHeld: (() => void) | undefined;
  await page.route(
    (url) => isBuildsRequest(url.href),
    async (route: Route) => {
      if (gate) {
        onHeld?.();
        await gate;
      }
      await route.continue();
    },
  );
  return {
    async close(): Promise<void> {
      const held = new Promise<void>((resolve) => {
        onHeld = resolve;
      });
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await held;
    },
    open(): void {
      gate = undefined;
      release();
    },
  };
}
