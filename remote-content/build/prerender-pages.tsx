/**
 * This remote's prerendered pages with the payloads the build just published, rendered at build
 * time (docs/decisions/0015-host-server-starts-the-page.md).
 */
import type { ComponentType } from 'react';
import type { PrerenderedPage } from '../../build/prerender-plugin';
import { prerenderRemotePages } from '../../build/prerender-remote-pages';
import AboutPage from '../src/exposed/about-page';
import HomePage from '../src/exposed/home-page';
import PrivacyPolicyPage from '../src/exposed/privacy-policy-page';
import TermsPage from '../src/exposed/terms-page';
import { payloadQueryOptions } from '../src/features/content/api/get-payload';
import type { ContentPayload } from '../src/features/content/api/content-payload';
import { CONTENT_PAGES, type ContentPageName } from '../src/features/content/content-pages';

export const EXPOSED_PAGES: Record<string, ComponentType> = { HomePage, AboutPage, PrivacyPolicyPage, TermsPage };

export function prerenderPages(payloads: Readonly<Record<ContentPageName, ContentPayload>>): PrerenderedPage[] {
  return prerenderRemotePages({
    remote: 'content',
    pages: EXPOSED_PAGES,
    answer: (client) => {
      for (const page of CONTENT_PAGES) {
        const { queryKey } = payloadQueryOptions(page);
        if (client.getQueryCache().find({ queryKey, exact: true })) client.setQueryData(queryKey, payloads[page]);
      }
    },
  });
}
