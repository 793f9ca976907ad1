import { markupAsDom } from 'shared/testing/server-render';
import { renderAt } from 'shared/testing/render-at';
import __Page__ from '../src/exposed/__page__';
import { prerenderPages } from './prerender-pages';

const PATH = '__path__';

describe('the prerendered __name__ page', () => {
  const pages = prerenderPages();

  it('covers the page its spec marks prerendered', () => {
    expect(pages.map((page) => page.module)).toEqual(['__Page__']);
  });

  it("is the browser's first render of its route", () => {
    const { container } = renderAt(PATH, { [PATH]: <__Page__ /> });
    expect(markupAsDom(container.innerHTML)).toBe(markupAsDom(pages[0]?.html ?? ''));
  });
});
