/**
 * Renders this remote's prerendered pages (the registry's routes marked `prerendered`) to the
 * markup the browser's first render of the same page shows, with the payloads the build has
 * just published, and the query cache that render read them from. The host's server puts both
 * into the HTML it sends (docs/decisions/0015-host-server-starts-the-page.md). Run at build time
 * by prerender-plugin.ts; the real exposed components render, so there is one markup, not two.
 */
import { dehydrate, type DehydratedState } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { queryClient as client } from 'shared/browser/api/query-client';
import { REMOTES, type RemoteSpec } from 'shared/remotes';
import AboutPage from '../src/exposed/about-page';
import HomePage from '../src/exposed/home-page';
import PrivacyPolicyPage from '../src/exposed/privacy-policy-page';
import TermsPage from '../src/exposed/terms-page';
import { payloadQueryOptions } from '../src/features/content/api/get-payload';
import type { ContentPayload } from '../src/features/content/api/content-payload';
import { CONTENT_PAGES, type ContentPageName } from '../src/features/content/content-pages';

/** The exposed pages by module name, as the registry names them. */
export const EXPOSED_PAGES: Record<string, ComponentType> = { HomePage, AboutPage, PrivacyPolicyPage, TermsPage };

export interface PrerenderedPage {
  /** The exposed module, such as `HomePage`. */
  module: string;
  /** The page's markup, as its first render in the browser produces it. */
  html: string;
  /** The query cache that markup was rendered from, for the browser's first render. */
  state: DehydratedState;
}

export function prerenderPages(payloads: Readonly<Record<ContentPageName, ContentPayload>>): PrerenderedPage[] {
  const pages: PrerenderedPage[] = [];
  const remote: RemoteSpec = REMOTES.content;
  for (const [module, spec] of Object.entries(remote.exposes)) {
    const route = spec.routes.find((candidate) => candidate.prerendered);
    if (!route) continue;
    const Page = EXPOSED_PAGES[module];
    if (!Page) throw new Error(`${module} is marked prerendered but prerender-pages.tsx has no component for it`);
    // The page's one client, as in the browser (PageQueryProvider), emptied for each page.
    client.clear();
    const render = () =>
      renderToStaticMarkup(
        <MemoryRouter initialEntries={[route.path]}>
          <Page />
        </MemoryRouter>,
      );
    // The first pass puts the page's queries into the cache, the payloads answer them, and the
    // second pass renders the page as it is once its text is there.
    render();
    for (const page of CONTENT_PAGES) {
      const { queryKey } = payloadQueryOptions(page);
      if (client.getQueryCache().find({ queryKey, exact: true })) client.setQueryData(queryKey, payloads[page]);
    }
    const waiting = client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.data === undefined);
    if (waiting.length > 0) {
      throw new Error(
        `${module} reads data the prerender cannot give it: ${waiting.map((q) => q.queryHash).join(', ')}`,
      );
    }
    pages.push({ module, html: render(), state: dehydrate(client) });
  }
  return pages;
}
