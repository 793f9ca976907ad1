/**
 * A real browser (Debian's chromium through playwright-core) and what a test counts on a page:
 * full document loads, their HTTP statuses, console errors, page errors, dialogs, failed
 * requests, Content-Security-Policy violations, and how many React renderers registered with
 * the devtools hook.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { HOST_ORIGIN, PROFILE_DIR } from './test-env';

export const CHROMIUM_PATH = process.env.E2E_CHROMIUM_PATH || '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Runs before any page script: the minimal devtools hook React looks for, so a test can count
 * the renderers that registered (a second copy of react-dom registers a second one). A string,
 * not a function, so no transpiler helper (such as esbuild's `__name`) leaks into the page.
 */
export const REACT_HOOK_STUB = `(() => {
  const renderers = new Map();
  let nextId = 1;
  const noop = () => undefined;
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    configurable: true,
    value: {
      supportsFiber: true,
      renderers,
      inject: (renderer) => {
        const id = nextId++;
        renderers.set(id, renderer);
        return id;
      },
      onCommitFiberRoot: noop,
      onCommitFiberUnmount: noop,
      onPostCommitFiberRoot: noop,
      checkDCE: noop,
    },
  });
})();`;

/** The function the context gives every frame, called with each CSP violation it sees. */
const VIOLATION_BINDING = '__e2eSecurityPolicyViolation';

/** What a `securitypolicyviolation` event says. */
export interface PolicyViolation {
  /** The directive that refused, such as `script-src-elem`. */
  directive: string;
  /** The refused URL, or `inline`, `eval`… */
  blocked: string;
  /** Where the refused code or request came from. */
  source: string;
  line: number;
  /** The start of refused inline code, when the policy asks for it. */
  sample: string;
  /** The document that saw it. */
  documentUrl: string;
}

/**
 * Runs before any page script, in every frame: each violation of the page's
 * Content-Security-Policy (a refused script, style, request, frame or eval, even one whose
 * exception the code caught) is handed to the test. A string, like REACT_HOOK_STUB.
 */
export const VIOLATION_RECORDER = `(() => {
  window.addEventListener('securitypolicyviolation', (event) => {
    const report = window.${VIOLATION_BINDING};
    if (typeof report !== 'function') return;
    report({
      directive: event.effectiveDirective,
      blocked: event.blockedURI,
      source: event.sourceFile,
      line: event.lineNumber,
      sample: event.sample,
      documentUrl: event.documentURI,
    });
  }, true);
})();`;

/** Each watched page's recorder of violations. */
const violationRecorders = new WeakMap<Page, (violation: PolicyViolation) => void>();

export function describeViolation(violation: PolicyViolation): string {
  const where = violation.source ? ` from ${violation.source}:${violation.line}` : '';
  const sample = violation.sample ? ` ("${violation.sample}")` : '';
  return `${violation.directive} refused ${violation.blocked || 'inline'}${sample}${where} on ${violation.documentUrl}`;
}

export interface LaunchOptions {
  colorScheme?: 'light' | 'dark' | 'no-preference';
  viewport?: { width: number; height: number };
  /** Extra playwright options for the context, such as `offline` or `extraHTTPHeaders`. */
  contextOptions?: Parameters<typeof chromium.launchPersistentContext>[1];
}

export interface BrowserSession {
  context: BrowserContext;
  /** A new tab with its watch already attached. */
  newPage(): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** Launches chromium with a fresh profile, removed again on close. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserSession> {
  mkdirSync(PROFILE_DIR, { recursive: true });
  const profile = mkdtempSync(join(PROFILE_DIR, 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL: HOST_ORIGIN,
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...options.contextOptions,
  });
  await context.addInitScript({ content: REACT_HOOK_STUB });
  await context.exposeBinding(VIOLATION_BINDING, ({ page }, violation: PolicyViolation) => {
    if (page) violationRecorders.get(page)?.(violation);
  });
  await context.addInitScript({ content: VIOLATION_RECORDER });
  // The persistent context opens a first tab before the init script exists; tests use their own.
  await Promise.all(context.pages().map((page) => page.close()));
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      return { page, watch: watchPage(page) };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface DocumentLoad {
  url: string;
  /** Undefined until the response arrives, or when the request failed. */
  status?: number;
}

export interface ProblemOptions {
  /**
   * Ignore the console error the browser itself logs for a document answered with an error
   * status ("Failed to load resource: … 404"), for pages that are meant to be a 404.
   */
  allowDocumentErrorStatus?: boolean;
}

export interface PageWatch {
  /** Every full load of the top-level document, in order; history navigations are not loads. */
  readonly documents: readonly DocumentLoad[];
  /** Console errors as `text (url:line)`. */
  readonly consoleErrors: readonly string[];
  readonly pageErrors: readonly string[];
  /** Dialogs (alert, confirm, prompt) are recorded and dismissed. */
  readonly dialogs: readonly string[];
  readonly failedRequests: readonly string[];
  /** Violations of the Content-Security-Policy, in every frame of the page. */
  readonly violations: readonly PolicyViolation[];
  documentLoads(): number;
  lastDocumentStatus(): number | undefined;
  /** Console errors, page errors, dialogs and CSP violations together; a clean page has none. */
  problems(options?: ProblemOptions): string[];
  /** Forgets everything seen so far. */
  reset(): void;
}

export interface WatchedPage {
  page: Page;
  watch: PageWatch;
}

function isDocumentLoad(page: Page, request: Request): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame() && request.redirectedFrom() === null;
}

interface ConsoleError {
  text: string;
  url: string;
  line: number;
}

const RESOURCE_ERROR = /^Failed to load resource: the server responded with a status of \d+/;

export function watchPage(page: Page): PageWatch {
  const documents: DocumentLoad[] = [];
  const byRequest = new Map<Request, DocumentLoad>();
  const consoleEntries: ConsoleError[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  const failedRequests: string[] = [];
  const violations: PolicyViolation[] = [];
  violationRecorders.set(page, (violation) => violations.push(violation));

  const isDocumentStatusError = (entry: ConsoleError) =>
    RESOURCE_ERROR.test(entry.text) && documents.some((load) => load.url === entry.url && (load.status ?? 0) >= 400);

  page.on('request', (request) => {
    if (!isDocumentLoad(page, request)) return;
    const load: DocumentLoad = { url: request.url() };
    documents.push(load);
    byRequest.set(request, load);
  });
  page.on('response', (response) => {
    let request = response.request();
    while (request.redirectedFrom()) request = request.redirectedFrom() as Request;
    const load = byRequest.get(request);
    if (load) load.status = response.status();
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    const entry = { text: message.text(), url, line: lineNumber };
    consoleEntries.push(entry);
    consoleErrors.push(url ? `${entry.text} (${url}:${lineNumber})` : entry.text);
  });
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? String(error)));
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('requestfailed', (request) => {
    failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });

  return {
    documents,
    consoleErrors,
    pageErrors,
    dialogs,
    failedRequests,
    violations,
    documentLoads: () => documents.length,
    lastDocumentStatus: () => documents.at(-1)?.status,
    problems: (options = {}) => [
      ...consoleEntries
        .filter((entry) => !(options.allowDocumentErrorStatus && isDocumentStatusError(entry)))
        .map((entry) => `console error: ${entry.url ? `${entry.text} (${entry.url}:${entry.line})` : entry.text}`),
      ...pageErrors.map((text) => `page error: ${text}`),
      ...dialogs.map((text) => `dialog: ${text}`),
      ...violations.map((violation) => `security policy violation: ${describeViolation(violation)}`),
    ],
    reset() {
      documents.length = 0;
      byRequest.clear();
      consoleEntries.length = 0;
      consoleErrors.length = 0;
      pageErrors.length = 0;
      dialogs.length = 0;
      failedRequests.length = 0;
      violations.length = 0;
    },
  };
}

type HookWindow = Window & { __REACT_DEVTOOLS_GLOBAL_HOOK__?: { renderers?: Map<number, unknown> } };

/** How many React renderers registered on the page (one copy of react-dom: exactly 1). */
export function reactRendererCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as HookWindow).__REACT_DEVTOOLS_GLOBAL_HOOK__?.renderers?.size ?? 0);
}
