/**
 * A remote's render bundle (`prerender/render.js`): the code that renders its data pages (a gift,
 * a redeem session) on the host's server per request, with the visitor's data from the API
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md). It is run only when its bytes
 * have the digest the remote's manifest gives for it, once per build, in a `node:vm` context of
 * its own: no `require`, no `process`, no file system, no network, no timers, only what React's
 * server renderer needs. That is containment, not a security boundary; the same team's code
 * already runs in every visitor's browser. A bundle that is refused, throws, or exports no
 * `render` is an error here, and its pages are rendered in the browser as before.
 */
import { createHash } from 'node:crypto';
import { createContext, Script } from 'node:vm';
import { RENDER_SCRIPT, type RenderDataPage, type RenderedDataPage } from 'shared/render-contract';

/** Longest a render may take before it is stopped: a page is rendered in a few milliseconds. */
const RENDER_TIMEOUT_MS = 1_000;

/** The `integrity` value of these bytes, as the remote's manifest writes it. */
function sha384Integrity(code: string): string {
  return `sha384-${createHash('sha384').update(code).digest('base64')}`;
}

/** React's scheduler makes a channel as it loads; a render to a string posts nothing to it. */
class InertMessageChannel {
  readonly port1 = { onmessage: null as unknown };
  readonly port2 = { postMessage: () => undefined };
}

/**
 * Runs the bundle whose bytes are `code`, given its manifest's `integrity`; throws when they do
 * not match or when it exports no `render`. The returned function throws what a render throws,
 * and throws on an answer that is not `{ html, state }`.
 */
export function loadRenderer(code: string, integrity: string | undefined): RenderDataPage {
  if (!integrity) throw new Error('its manifest gives no digest for it');
  if (sha384Integrity(code) !== integrity) throw new Error('its bytes do not match the digest its manifest gives');
  const module = { exports: {} as { render?: unknown } };
  const context = createContext({
    module,
    exports: module.exports,
    console: { log: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    // A browser without a share sheet, as the pages read it (the gift page's "Share link" looks the same
    // either way; pressed in such a browser, it copies).
    navigator: {},
    MessageChannel: InertMessageChannel,
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
  });
  new Script(code, { filename: RENDER_SCRIPT }).runInContext(context, { timeout: RENDER_TIMEOUT_MS });
  const { render } = module.exports;
  if (typeof render !== 'function') throw new Error('it exports no render function');
  // Called through the context, so a render that never ends is stopped like the bundle's loading;
  // the request goes in as text, parsed there, so the bundle holds no object of the server's own.
  const call = new Script('module.exports.render(JSON.parse(request))', { filename: 'render-call.js' });
  return (request) => {
    context.request = JSON.stringify(request);
    try {
      const page = call.runInContext(context, { timeout: RENDER_TIMEOUT_MS }) as Partial<RenderedDataPage> | null;
      if (typeof page?.html !== 'string' || typeof page.state !== 'object' || page.state === null) {
        throw new Error('render returned no page');
      }
      return { html: page.html, state: JSON.parse(JSON.stringify(page.state)) as unknown };
    } finally {
      delete context.request;
    }
  };
}
