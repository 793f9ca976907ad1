import { reachedServer } from './network-log';

describe('reachedServer', () => {
  it('counts a request the server answered', () => {
    expect(reachedServer({ blocked: false, fromCache: false })).toBe(true);
  });

  it("leaves out a preloaded script's second request, answered from the preload, and a blocked one", () => {
    expect(reachedServer({ blocked: false, fromCache: true })).toBe(false);
    expect(reachedServer({ blocked: true, fromCache: false })).toBe(false);
  });
});
