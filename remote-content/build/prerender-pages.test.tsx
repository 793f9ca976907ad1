import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { forgetPrerenderedData } from 'shared/browser/api/prerendered-state';
import { queryClient } from 'shared/browser/api/query-client';
import { jsonForScriptElement, PRERENDER_STATE_ELEMENT_ID } from 'shared/page-data';
import { REMOTES } from 'shared/remotes';
import { CONTENT_PAGES, type ContentPageName } from '../src/features/content/content-pages';
import type { ContentPayload } from '../src/features/content/api/content-payload';
import { readOperator } from './operator';
import { pagePayload } from './payload-plugin';
import { EXPOSED_PAGES, prerenderPages } from './prerender-pages';

const payloads = Object.fromEntries(
  CONTENT_PAGES.map((page) => [
    page,
    pagePayload(readFileSync(join(__dirname, '..', 'content', `${page}.md`), 'utf8'), readOperator({})),
  ]),
) as Record<ContentPageName, ContentPayload>;

/**
 * Markup as the browser's DOM holds it (attribute names are case-insensitive in HTML), without
 * React's useId values, which differ between a server and a browser render while nothing visible does.
 */
function asDom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.innerHTML.replace(/ (id|aria-labelledby)="[^"]*"/g, ' $1="…"');
}

const fetchSpy = jest.fn(() => Promise.reject(new Error('no request expected')));

beforeEach(() => {
  fetchSpy.mockClear();
  global.fetch = fetchSpy as unknown as typeof fetch;
  forgetPrerenderedData();
});

afterEach(() => document.getElementById(PRERENDER_STATE_ELEMENT_ID)?.remove());

/** The page as the host's server sends it: the prerendered data, marked with the build that rendered it. */
function putInPage(state: unknown, build: string): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PRERENDER_STATE_ELEMENT_ID;
  element.dataset.build = build;
  element.textContent = jsonForScriptElement(state);
  document.head.append(element);
}

function renderPage(module: string, path: string) {
  const Page = EXPOSED_PAGES[module];
  if (!Page) throw new Error(`${module} has no component`);
  // The page's one client, as in the browser, empty as on a first load.
  queryClient.clear();
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Page />
    </MemoryRouter>,
  );
}

describe('prerendered content pages', () => {
  const pages = prerenderPages(payloads);

  it('covers every page the registry marks prerendered, and nothing else', () => {
    const marked = Object.entries(REMOTES.content.exposes)
      .filter(([, spec]) => spec.routes.some((route) => route.prerendered))
      .map(([module]) => module);
    expect(pages.map((page) => page.module).sort()).toEqual(marked.sort());
  });

  it.each(Object.entries(REMOTES.content.exposes))(
    "%s: the browser's first render, from the prerendered data, is the prerendered markup, with no request",
    (module, spec) => {
      const prerendered = pages.find((page) => page.module === module);
      if (!prerendered) throw new Error(`${module} was not prerendered`);
      putInPage(prerendered.state, __BUILD_ID__);
      const { container } = renderPage(module, spec.routes[0]?.path ?? '/');
      expect(asDom(container.innerHTML)).toBe(asDom(prerendered.html));
      expect(container.querySelector('h1')?.textContent).not.toBe('');
      expect(fetchSpy).not.toHaveBeenCalled();
    },
  );

  it('is not used by another build of this remote: that one asks for its own text', () => {
    const about = pages.find((page) => page.module === 'AboutPage');
    putInPage(about?.state, 'another-build');
    const { container } = renderPage('AboutPage', '/about');
    expect(container.querySelector('h1')).toBeNull();
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('holds the text of the page’s payload, and only that payload in its data', () => {
    const about = pages.find((page) => page.module === 'AboutPage');
    expect(about?.html).toContain(`>${payloads.about.title}</h1>`);
    expect(about?.state.queries.map((query) => query.queryKey)).toEqual([['content', 'payload', 'about']]);
  });
});
