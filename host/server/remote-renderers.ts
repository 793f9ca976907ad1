/**
 * A remote's render bundle, run only with its manifest's digest and only in the remote's render
 * workers (docs/decisions/0033-render-bundles-in-worker-processes.md).
 */
import { createHash } from 'node:crypto';
import type { RenderedDataPage, RenderRequest } from 'shared/render-contract';
import { RenderPool, type RenderPoolOptions } from './render-pool';

export type RemoteRender = (request: RenderRequest) => Promise<RenderedDataPage>;

function sha384Integrity(code: string): string {
  return `sha384-${createHash('sha384').update(code).digest('base64')}`;
}

/** Rejects when `integrity` does not match, the loading throws or no `render` is exported. */
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

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
