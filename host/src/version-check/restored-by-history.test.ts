import { watchHistoryRestores } from './restored-by-history';

/** A page whose navigation had `type`, with the `pageshow` events it is sent. */
function documentOf(type: NavigationTimingType) {
  const target = new EventTarget() as unknown as Window;
  Object.assign(target, { performance: { getEntriesByType: () => [{ type }] } });
  return {
    restored: watchHistoryRestores(target),
    show: (persisted: boolean) => target.dispatchEvent(Object.assign(new Event('pageshow'), { persisted })),
  };
}

describe('watchHistoryRestores', () => {
  it('knows a document the browser took from its HTTP cache for Back or Forward', () => {
    expect(documentOf('back_forward').restored()).toBe(true);
  });

  it('knows a document the back/forward cache restored, from then on', () => {
    const page = documentOf('navigate');
    page.show(false);
    expect(page.restored()).toBe(false);
    page.show(true);
    expect(page.restored()).toBe(true);
    page.show(false);
    expect(page.restored()).toBe(true);
  });

  it('does not count a document the page loaded or reloaded itself', () => {
    expect(documentOf('navigate').restored()).toBe(false);
    expect(documentOf('reload').restored()).toBe(false);
  });
});
