import { queryClient } from 'shared/browser/api/query-client';
import { REMOTES, type RemoteSpec } from 'shared/remotes';
import GamePage from '../src/exposed/game-page';
import { renderWithApi, stubFetch } from '../src/test-utils';
import { prerenderPages } from './prerender-pages';

/** Markup as the browser's DOM holds it (attribute names are case-insensitive in HTML). */
function asDom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.innerHTML;
}

describe('the prerendered game', () => {
  const pages = prerenderPages();

  it('covers every page of this remote the registry marks prerendered, and nothing else', () => {
    const { exposes }: RemoteSpec = REMOTES.gifts;
    const marked = Object.entries(exposes)
      .filter(([, spec]) => spec.routes.some((route) => route.prerendered))
      .map(([module]) => module);
    expect(pages.map((page) => page.module)).toEqual(marked);
    expect(marked).toEqual(['GamePage']);
  });

  it("is the browser's first render of /game: the boxes, ready to pick, and no request", () => {
    const [game] = pages;
    queryClient.clear();
    const fetchStub = stubFetch();
    const { container } = renderWithApi('/game', { '/game': <GamePage /> }, fetchStub);
    expect(asDom(container.innerHTML)).toBe(asDom(game?.html ?? ''));
    expect(game?.html).toContain('>Box 1</span>');
    expect(game?.state.queries).toEqual([]);
    expect(fetchStub).not.toHaveBeenCalled();
  });
});
