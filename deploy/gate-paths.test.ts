/** How the gate and the deploy commands print a capability id, and the sample pages they ask for. */
import { REMOTES } from 'shared/remotes';
import { maskIds, samplePathHints } from './gate-paths';

const GIFT = 'G1ftG1ftG1ftG1ftG1ftG1ft';
const REDEEM = 'R3dm-R3dm_R3dmR3dmR3dmR';

describe('maskIds', () => {
  it("cuts every gift's and redeem session's id in a text to its first four characters", () => {
    expect(
      maskIds(
        `page.goto: net::ERR_ABORTED at http://127.0.0.1:4200/gifts/${GIFT}?from=mail; GET /api/redeems/${REDEEM}/complete; /redeem/${REDEEM}`,
      ),
    ).toBe(
      'page.goto: net::ERR_ABORTED at http://127.0.0.1:4200/gifts/G1ft…?from=mail; GET /api/redeems/R3dm…/complete; /redeem/R3dm…',
    );
  });

  it('leaves folders, build ids and short segments as they are', () => {
    const text =
      '/srv/gifts/builds/d412bd69-98f4-4de9-96dd-31e67fb85939/ is whole; /remotes/gifts/mf-manifest.json; /gifts/abc';
    expect(maskIds(text)).toBe(text);
  });
});

describe('samplePathHints', () => {
  it('gives a --path for each route with parameters of the remote, none for a remote without', () => {
    expect(samplePathHints(REMOTES.gifts)).toEqual(['--path /gifts/<a real giftId>']);
    expect(samplePathHints(REMOTES.redeem)).toEqual(['--path /redeem/<a real redeemId>']);
    expect(samplePathHints(REMOTES.content)).toEqual([]);
  });
});
