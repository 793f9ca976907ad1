import { manifestBuildId } from './remote-manifest';
import { UNKNOWN_BUILD } from './telemetry';

describe('manifestBuildId', () => {
  it('reads the build id a build writes into its manifest', () => {
    expect(manifestBuildId({ buildId: '2027.01.15-a1b2c3', metaData: {} })).toBe('2027.01.15-a1b2c3');
  });

  it.each([
    ['a manifest from before builds named themselves', { metaData: {} }],
    ['no manifest at all', null],
    ['an id no deploy accepts', { buildId: '../../etc' }],
    ['an id that is not text', { buildId: 42 }],
    ['an id too long to be a label', { buildId: 'b'.repeat(129) }],
  ])('gives "unknown" for %s', (_, manifest) => {
    expect(manifestBuildId(manifest)).toBe(UNKNOWN_BUILD);
  });
});
