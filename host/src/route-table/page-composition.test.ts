import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { pageRouteTable } from './page-composition';

const config = parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'http://localhost:3004' });

describe('the route table a page composes from the manifests (no table in its configuration)', () => {
  it('keeps the registry routes of a remote whose routes document is refused whole, as the host server does', async () => {
    const warnings: string[] = [];
    const table = await pageRouteTable(config, {
      readManifest: async (url) => (url === config.remotes.content ? { routes: { version: 99 } } : undefined),
      warn: (message) => warnings.push(message),
    });
    expect(table.matchRoute('/about')?.route.remote).toBe('content');
    expect(table.matchRoute('/gifts/42')?.route.remote).toBe('gifts');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('content');
  });
});
