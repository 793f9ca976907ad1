/** Renders a remote's `prerendered` pages at build time with their real components (prerender-plugin.ts). */
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { createApiClient } from 'shared/api/client';
import { ApiProvider } from 'shared/browser/api/api-context';
import { queryClient as client } from 'shared/browser/api/query-client';
import type { RemoteSpec } from 'shared/remotes';
import type { PrerenderedPage } from './prerender-plugin';
import { specOf } from './spec-origin';

export interface PrerenderRemotePagesOptions {
  remote: string;
  spec?: RemoteSpec;
  pages: Readonly<Record<string, ComponentType>>;
  /** Answers the queries a page's first render asked for (the content remote's payloads). */
  answer?: (client: QueryClient) => void;
}

/** A page's first render calls no API (what it shows is the same with the host's client); a call fails. */
const NO_API = createApiClient({
  baseUrl: 'http://prerender.invalid',
  fetch: () => Promise.reject(new Error('a prerendered page called the API at build time')),
});

export function prerenderRemotePages({ remote, spec, pages, answer }: PrerenderRemotePagesOptions): PrerenderedPage[] {
  const rendered: PrerenderedPage[] = [];
  const { exposes } = specOf(remote, spec);
  for (const [module, { routes }] of Object.entries(exposes)) {
    const route = routes.find((candidate) => candidate.prerendered);
    if (!route) continue;
    const Page = pages[module];
    if (!Page) throw new Error(`${module} is marked prerendered but its prerender has no component for it`);
    // The page's one client, as in the browser (PageQueryProvider), emptied for each page.
    client.clear();
    const render = () =>
      renderToStaticMarkup(
        <ApiProvider client={NO_API}>
          <MemoryRouter initialEntries={[route.path]}>
            <Page />
          </MemoryRouter>
        </ApiProvider>,
      );
    // The first pass puts the page's queries into the cache, `answer` fills them, and the
    // second pass renders the page as it is once its data is there.
    render();
    answer?.(client);
    const waiting = client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.data === undefined);
    if (waiting.length > 0) {
      throw new Error(
        `${module} reads data the prerender cannot give it: ${waiting.map((query) => query.queryHash).join(', ')}`,
      );
    }
    rendered.push({ module, html: render(), state: dehydrate(client) });
  }
  return rendered;
}
