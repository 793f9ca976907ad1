/**
 * What a test counts on a page of the worker's browser (Debian's chromium, launched by
 * @playwright/test with the options of playwright.config.ts): full document loads, their HTTP
 * statuses, console errors, page errors, dialogs, failed requests, Content-Security-Policy
 * violations, and how many React renderers registered with the devtools hook.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from '@playwright/test';
import { reactDevtoolsHook } from 'testbed/chromium';

/** Runs before any page script: the devtools hook through which a test counts React renderers. */
export const REACT_HOOK_STUB = reactDevtoolsHook();

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

export interface BrowserSession {
  context: BrowserContext;
  /** A new tab with its watch already attached. */
  newPage(): Promise<WatchedPage>;
  close(): Promise<void>;
}

/**
 * Makes a context count what the suite counts: the React hook stub and the CSP violation
 * recorder run before any page script of it. Every context of the suite goes through here (the
 * fixtures' own and `openSession`'s).
 */
export async function prepareContext(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: REACT_HOOK_STUB });
  await context.exposeBinding(VIOLATION_BINDING, ({ page }, violation: PolicyViolation) => {
    if (page) violationRecorders.get(page)?.(violation);
  });
  await context.addInitScript({ content: VIOLATION_RECORDER });
}

/**
 * A second visitor (or the same visitor with other settings, a phone, a dark screen): a fresh
 * context of the worker's browser, with no cookies or storage, prepared as the fixtures' own.
 * Its traces and screenshots are kept with the test's when it fails.
 */
export async function openSession(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserSession> {
  const context = await browser.newContext(options);
  await prepareContext(context);
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      return { page, watch: watchPage(page) };
    },
    close: () => context.close(),
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
  /**
   * Requests that failed, as `METHOD url: error`, but for those the page itself cancelled
   * (`cancelledRequests`): a failed request is a failure of the site.
   */
  readonly failedRequests: readonly string[];
  /**
   * Requests the browser cancelled because the page moved on: made by a document that a new one
   * replaced (or was replacing) when they ended, or a fetch the page's own code aborted (a query
   * whose component unmounted). Not failures; kept to read in a failing test's output.
   */
  readonly cancelledRequests: readonly string[];
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

/** Chromium's error for a request cancelled by the client: a navigation, an abort, a removed element. */
const CANCELLED = 'net::ERR_ABORTED';

/**
 * Decides, for a failed request of `page`, whether the page itself cancelled it. Each request
 * belongs to the document committed when it was made; the browser cancels a document's requests
 * as the next document's request starts, before that one commits. A history navigation inside
 * the page commits no new document. A fetch is the page's own code (the only way to cancel one
 * is its AbortController), so an aborted fetch is one the app gave up on.
 */
function cancellationTracker(page: Page): (request: Request) => boolean {
  let committed = 0;
  let loading = false;
  const madeIn = new WeakMap<Request, number>();
  page.on('request', (request) => {
    if (isDocumentLoad(page, request)) loading = true;
    madeIn.set(request, committed);
  });
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() || !loading) return;
    loading = false;
    committed += 1;
  });
  // A document request that fails commits nothing: the page stays on the old document.
  page.on('requestfailed', (request) => {
    if (isDocumentLoad(page, request)) loading = false;
  });
  return (request) => {
    if (request.failure()?.errorText !== CANCELLED) return false;
    if (request.resourceType() === 'fetch') return true;
    const documentGone = committed > (madeIn.get(request) ?? committed);
    return documentGone || (loading && !isDocumentLoad(page, request));
  };
}

export function watchPage(page: Page): PageWatch {
  const documents: DocumentLoad[] = [];
  const byRequest = new Map<Request, DocumentLoad>();
  const consoleEntries: ConsoleError[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  const failedRequests: string[] = [];
  const cancelledRequests: string[] = [];
  const cancelled = cancellationTracker(page);
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
    const text = `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`;
    (cancelled(request) ? cancelledRequests : failedRequests).push(text);
  });

  return {
    documents,
    consoleErrors,
    pageErrors,
    dialogs,
    failedRequests,
    cancelledRequests,
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
      cancelledRequests.length = 0;
      violations.length = 0;
    },
  };
}

type HookWindow = Window & { __REACT_DEVTOOLS_GLOBAL_HOOK__?: { renderers?: Map<number, unknown> } };

/** How many React renderers registered on the page (one copy of react-dom: exactly 1). */
export function reactRendererCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as HookWindow).__REACT_DEVTOOLS_GLOBAL_HOOK__?.renderers?.size ?? 0);
}
