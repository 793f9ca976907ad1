/**
 * The version check's stand-in in the page's first script: it fetches the check's code only when
 * started, tracks the remotes loaded before then, and leaves the page without a check when the
 * code cannot be fetched.
 */
import { deferredVersionCheck } from './deferred-version-check';
import type { VersionCheck } from './version-check';

type FakeCheck = jest.Mocked<VersionCheck> & { stale: boolean };

function fakeCheck(): FakeCheck {
  const check: FakeCheck = {
    stale: false,
    start: jest.fn(),
    stop: jest.fn(),
    poll: jest.fn(async (): Promise<void> => undefined),
    trackRemote: jest.fn(async (_name: string, _entryUrl: string): Promise<void> => undefined),
    isStale: jest.fn((): boolean => check.stale),
  };
  return check;
}

describe('deferredVersionCheck', () => {
  it('fetches the check only when started, then starts it', async () => {
    const real = fakeCheck();
    const load = jest.fn(async () => real);
    const check = deferredVersionCheck(load);
    expect(load).not.toHaveBeenCalled();
    expect(check.isStale()).toBe(false);

    check.start();
    check.start();
    await check.poll();
    expect(load).toHaveBeenCalledTimes(1);
    expect(real.start).toHaveBeenCalledTimes(1);
    real.stale = true;
    expect(check.isStale()).toBe(true);
  });

  it('tracks each remote loaded before the check arrived, once, and later ones straight away', async () => {
    const real = fakeCheck();
    const check = deferredVersionCheck(async () => real);
    await check.trackRemote('gifts', 'http://gifts.test/mf-manifest.json');
    await check.trackRemote('gifts', 'http://gifts.test/mf-manifest.json');
    await check.trackRemote('redeem', 'http://redeem.test/mf-manifest.json');
    expect(real.trackRemote).not.toHaveBeenCalled();

    check.start();
    await check.poll();
    expect(real.trackRemote.mock.calls).toEqual([
      ['gifts', 'http://gifts.test/mf-manifest.json'],
      ['redeem', 'http://redeem.test/mf-manifest.json'],
    ]);
    await check.trackRemote('content', 'http://content.test/mf-manifest.json');
    expect(real.trackRemote).toHaveBeenLastCalledWith('content', 'http://content.test/mf-manifest.json');
  });

  it('does not start a check stopped while its code was on its way', async () => {
    const real = fakeCheck();
    const check = deferredVersionCheck(async () => real);
    check.start();
    check.stop();
    await check.poll();
    expect(real.start).not.toHaveBeenCalled();
  });

  it('logs a check whose code cannot be fetched, and the page goes on never stale', async () => {
    const log = jest.fn();
    const check = deferredVersionCheck(async () => Promise.reject(new Error('Loading chunk failed')), { log });
    await check.trackRemote('gifts', 'http://gifts.test/mf-manifest.json');
    check.start();
    await expect(check.poll()).resolves.toBeUndefined();
    expect(check.isStale()).toBe(false);
    expect(log).toHaveBeenCalledWith('The version check could not be loaded', expect.any(Error));
  });
});
