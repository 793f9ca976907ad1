/**
 * A loopback server standing in for Google's gtag.js at its path (`/gtag/js?id=…`). Like the
 * real script it takes over `window.dataLayer`: it processes what the page queued before it
 * loaded, then every later push. It records each command (as an array, and whether it came as
 * the Arguments object gtag.js requires) in `window.__gtagStandIn`, and the server records
 * when the script was asked for.
 */
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';

export const GTAG_SCRIPT_PATH = '/gtag/js';

export interface GtagCommand {
  args: unknown[];
  /** gtag.js ignores anything that is not an Arguments object. */
  isArguments: boolean;
}

export interface GtagRecord {
  id: string | null;
  commands: GtagCommand[];
}

const SCRIPT = `(function () {
  if (window.__gtagStandIn) return;
  var script = document.currentScript;
  var id = script ? new URL(script.src).searchParams.get('id') : null;
  var state = { id: id, commands: [] };
  window.__gtagStandIn = state;
  var dataLayer = (window.dataLayer = window.dataLayer || []);
  function process(entry) {
    var isArguments = Object.prototype.toString.call(entry) === '[object Arguments]';
    var args = Array.prototype.slice.call(entry).map(function (arg) {
      return arg instanceof Date ? { date: arg.toISOString() } : arg;
    });
    state.commands.push({ args: JSON.parse(JSON.stringify(args)), isArguments: isArguments });
  }
  for (var i = 0; i < dataLayer.length; i += 1) process(dataLayer[i]);
  var push = dataLayer.push;
  dataLayer.push = function () {
    for (var j = 0; j < arguments.length; j += 1) process(arguments[j]);
    return push.apply(dataLayer, arguments);
  };
})();`;

export interface GtagStandIn {
  url: string;
  /** Each request for the script: its URL and when it arrived (ms since the epoch). */
  requests(): Array<{ url: string; at: number }>;
  reset(): void;
  close(): Promise<void>;
}

export async function startGtagStandIn(port: number): Promise<GtagStandIn> {
  let requests: Array<{ url: string; at: number }> = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== GTAG_SCRIPT_PATH) {
      response.writeHead(404).end();
      return;
    }
    requests.push({ url: request.url ?? '', at: Date.now() });
    response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
    response.end(SCRIPT);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}${GTAG_SCRIPT_PATH}`,
    requests: () => [...requests],
    reset() {
      requests = [];
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the stand-in processed in the page, once it has run. */
export async function gtagRecord(page: Page): Promise<GtagRecord> {
  await page.waitForFunction(() => Boolean((window as { __gtagStandIn?: unknown }).__gtagStandIn), undefined, {
    timeout: 15_000,
  });
  return page.evaluate(() => (window as unknown as { __gtagStandIn: GtagRecord }).__gtagStandIn);
}
