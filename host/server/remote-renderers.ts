/**
 * A remote's render bundle (`prerender/render.js`): the code that renders its data pages (a gift,
 * a redeem session) per request, with the visitor's data from the API
 * (docs/decisions/0028-data-pages-rendered-by-the-host-server.md). It is run only when its bytes
 * have the digest the remote's manifest gives for it, and never in the host's server's process:
 * in the remote's render workers (render-pool.ts, docs/decisions/0033-render-bundles-in-worker-processes.md),
 * processes with no environment, no file system, no network and a memory cap, loaded once per
 * build. A bundle that is refused, throws, or exports no `render` is an error here, and its pages
 * are rendered in the browser.
 */
import { createHash } from 'node:crypto';
import type { RenderedDataPage, RenderRequest } from 'shared/render-contract';
import { RenderPool, type RenderPoolOptions } from './render-pool';

/** A checked bundle's `render`, run in a worker: it rejects when the render fails, is late or answers no page. */
export type RemoteRender = (request: RenderRequest) => Promise<RenderedDataPage>;

/** The `integrity` value of these bytes, as the remote's manifest writes it. */
function sha384Integrity(code: string): string {
  return `sha384-${createHash('sha384').update(code).digest('base64')}`;
}

/**
 * Loads the bundle whose bytes are `code` into `pool`, given its manifest's `integrity`; rejects
 * when they do not match, when its loading throws or when it exports no `render`.
 */
export async function loadRenderer(
  pool: RenderPool,
  code: string,
  integrity: string | undefined,
): Promise<RemoteRender> {
  if (!integrity) throw new Error('its manifest gives no digest for it');
  if (sha384Integrity(code) !== integrity) throw new Error('its bytes do not match the digest its manifest gives');
  await pool.load(integrity, code);
  return (request) => pool.render(integrity, code, request);
}

/** One pool of render workers per remote, started when its first bundle is loaded. */
export class RenderPools {
  private readonly pools = new Map<string, RenderPool>();

  constructor(private readonly options: RenderPoolOptions) {}

  pool(remote: string): RenderPool {
    let pool = this.pools.get(remote);
    if (!pool) {
      pool = new RenderPool(this.options);
      this.pools.set(remote, pool);
    }
    return pool;
  }

  /** Stops every remote's workers (the host's server is stopping). */
  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
