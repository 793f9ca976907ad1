/** Renders a remote's `serverData` pages on the host's server per request (docs/decisions/0028). */
import { dehydrate, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createApiClient } from 'shared/api/client';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createQueryClient } from 'shared/browser/api/query-client';
import type { RemoteSpec } from 'shared/remotes';
import type { RenderDataPage } from 'shared/render-contract';
import { specOf } from './spec-origin';

/** The page renders from the data it is given; a call to the API while rendering fails. */
const NO_API = createApiClient({
  baseUrl: 'http://render.invalid',
  fetch: () => Promise.reject(new Error('a page rendered on the server called the API')),
});

export interface DataPagesOptions {
  remote: string;
  spec?: RemoteSpec;
  pages: Readonly<Record<string, ComponentType>>;
}

function dataRoutes({ exposes }: RemoteSpec): Map<string, string> {
  const routes = new Map<string, string>();
  for (const [module, exposed] of Object.entries(exposes)) {
    const route = exposed.routes.find((candidate) => candidate.serverData);
    if (route) routes.set(module, route.path);
  }
  return routes;
}

export function createDataPageRenderer({ remote, spec, pages }: DataPagesOptions): RenderDataPage {
  const routes = dataRoutes(specOf(remote, spec));
  for (const module of routes.keys()) {
    if (!pages[module]) throw new Error(`${module} is marked serverData but the renderer has no component for it`);
  }
  return ({ module, pathname, queries }) => {
    const path = routes.get(module);
    const Page = pages[module];
    if (!path || !Page) throw new Error(`${module} is not a page of the ${remote} remote rendered with its data`);
    // A client of its own per request: nothing of one visitor's page reaches another's.
    const client = createQueryClient();
    for (const { queryKey, data } of queries) client.setQueryData(queryKey, data);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <ApiProvider client={NO_API}>
          <MemoryRouter initialEntries={[pathname]}>
            <Routes>
              <Route path={path} element={<Page />} />
            </Routes>
          </MemoryRouter>
        </ApiProvider>
      </QueryClientProvider>,
    );
    return { html, state: dehydrate(client) };
  };
}
