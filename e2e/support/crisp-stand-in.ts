/**
 * A loopback server standing in for Crisp's client at its path (`/l.js`), so the host loads
 * live chat exactly as in production, only from here. The script does what the app relies on
 * in Crisp's: it reads `window.CRISP_WEBSITE_ID`, takes over the `window.$crisp` queue array
 * (replacing it with an object whose `push` acts at once, plus `is` and `get`), applies the
 * queued commands before it shows anything, and renders a chatbox (`#crisp-chatbox`: a launcher
 * button and a panel) whose visibility and open state follow `chat:show`, `chat:hide`,
 * `chat:open`, `chat:close` and `chat:toggle`. It records every command, and whether the
 * chatbox was ever shown, in `window.__crispStandIn`. The server can answer with an error
 * status or hold the script back until the test releases it.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { Page } from '@playwright/test';

export const STAND_IN_SCRIPT_PATH = '/l.js';

/** What the stand-in's script records in the page. */
export interface StandInRecord {
  websiteId: string | undefined;
  /** Every command in the order applied; `queued` when it was pushed before the script ran. */
  commands: Array<{ verb: string; name: string; queued: boolean }>;
  visible: boolean;
  opened: boolean;
  everVisible: boolean;
}

const CLIENT_SCRIPT = `(function () {
  if (window.__crispStandIn) return;
  var queued = Array.isArray(window.$crisp) ? window.$crisp : [];
  var state = { websiteId: window.CRISP_WEBSITE_ID, commands: [], visible: true, opened: false, everVisible: false };
  window.__crispStandIn = state;
  var box = null;
  var panel = null;
  var handlers = {};
  var actions = {
    'chat:show': function () { state.visible = true; },
    'chat:hide': function () { state.visible = false; },
    'chat:open': function () { state.opened = true; },
    'chat:close': function () { state.opened = false; },
    'chat:toggle': function () { state.opened = !state.opened; }
  };
  function render() {
    if (!box) return;
    box.style.display = state.visible ? 'flex' : 'none';
    box.setAttribute('data-opened', String(state.opened));
    panel.hidden = !state.opened;
    if (state.visible) state.everVisible = true;
  }
  function handle(item, fromQueue) {
    if (!Array.isArray(item)) return;
    var verb = item[0];
    var name = item[1];
    state.commands.push({ verb: verb, name: name, queued: fromQueue });
    var wasOpened = state.opened;
    if (verb === 'do' && actions[name]) actions[name]();
    // Like Crisp: "chat:opened" and "chat:closed" handlers hear of each change.
    var changed = state.opened !== wasOpened ? (state.opened ? 'chat:opened' : 'chat:closed') : undefined;
    if (changed && handlers[changed]) handlers[changed]();
    if (verb === 'on' && typeof item[2] === 'function') handlers[name] = item[2];
    if (verb === 'off') delete handlers[name];
    render();
  }
  window.$crisp = {
    push: function (item) { handle(item, false); },
    is: function (name) {
      if (name === 'chat:visible') return state.visible;
      if (name === 'chat:hidden') return !state.visible;
      if (name === 'chat:opened') return state.opened;
      if (name === 'chat:closed') return !state.opened;
      return false;
    },
    get: function () { return undefined; }
  };
  // Like Crisp: what the page queued before the script ran applies before the chatbox shows.
  for (var i = 0; i < queued.length; i += 1) handle(queued[i], true);
  box = document.createElement('div');
  box.id = 'crisp-chatbox';
  box.style.cssText = 'position:fixed;right:16px;bottom:16px;z-index:1000;display:flex;flex-direction:column;align-items:flex-end;gap:8px';
  var launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.textContent = 'Open chat';
  launcher.onclick = function () { handle(['do', 'chat:toggle'], false); };
  panel = document.createElement('div');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'Crisp chat');
  panel.textContent = 'How can we help?';
  panel.style.cssText = 'background:#fff;color:#000;padding:8px;border:1px solid #888';
  box.appendChild(panel);
  box.appendChild(launcher);
  document.body.appendChild(box);
  render();
  if (typeof window.CRISP_READY_TRIGGER === 'function') window.CRISP_READY_TRIGGER();
})();
`;

export interface StandInRequest {
  path: string;
  /** Wall-clock time the request arrived. */
  at: number;
}

export interface CrispStandIn {
  /** The script's URL, for CRISP_SCRIPT_URL. */
  readonly url: string;
  readonly origin: string;
  /** Requests for the script, in order. */
  readonly requests: readonly StandInRequest[];
  /** Resolves once `count` requests for the script have arrived, or fails after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Answer the script with this status (and a short error body unless 200). */
  answerWith(status: number): void;
  /** Keep script requests waiting until `release()`. */
  hold(): void;
  /** Answer every held request and stop holding. */
  release(): void;
  /** Back to answering at once with the script; forgets the requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startCrispStandIn(port: number): Promise<CrispStandIn> {
  const requests: StandInRequest[] = [];
  const waiters = new Set<() => void>();
  const held: ServerResponse[] = [];
  let status = 200;
  let holding = false;

  const answer = (response: ServerResponse) => {
    if (response.destroyed) return;
    if (status !== 200) {
      response.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      response.end(`stand-in answering ${status}`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    response.end(CLIENT_SCRIPT);
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    if (request.method !== 'GET' || path !== STAND_IN_SCRIPT_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    requests.push({ path, at: Date.now() });
    for (const wake of [...waiters]) wake();
    if (holding) held.push(response);
    else answer(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  const origin = `http://localhost:${port}`;
  const release = () => {
    holding = false;
    for (const response of held.splice(0)) answer(response);
  };
  return {
    url: `${origin}${STAND_IN_SCRIPT_PATH}`,
    origin,
    requests,
    waitForRequests(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`Crisp's script was asked for ${requests.length} times, not ${count}, within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    answerWith(next) {
      status = next;
    },
    hold() {
      holding = true;
    },
    release,
    reset() {
      release();
      status = 200;
      requests.length = 0;
    },
    async close() {
      for (const response of held.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What the stand-in recorded in the page, or undefined before its script has run. */
export function standInRecord(page: Page): Promise<StandInRecord | undefined> {
  return page.evaluate(() => (window as unknown as { __crispStandIn?: StandInRecord }).__crispStandIn);
}

/** Waits until the stand-in's script has run in the page and gives its record. */
export async function waitForStandIn(page: Page, timeoutMs = 15_000): Promise<StandInRecord> {
  await page.waitForFunction(() => '__crispStandIn' in window, undefined, { timeout: timeoutMs });
  return (await standInRecord(page)) as StandInRecord;
}
