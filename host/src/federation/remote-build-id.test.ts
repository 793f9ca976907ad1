import { attributedBuild, configuredBuild } from './remote-build-id';

const OWN = 'https://gifts.example.com/mf-manifest.json';
const FALLBACK = 'https://gifts.example.com/builds/s1/mf-manifest.json';
const config = { remotes: { gifts: OWN }, remoteBuilds: { gifts: 'c2' }, remoteFallbacks: { gifts: FALLBACK } };

describe("a remote's build, named by the configuration", () => {
  it("is `remoteBuilds`' for the remote's own manifest, whatever the manifest says of itself", () => {
    expect(configuredBuild(config, 'gifts', OWN)).toBe('c2');
    expect(attributedBuild(config, 'gifts', OWN, { buildId: 'other' })).toBe('c2');
  });

  it("is the one a configured fallback's URL names", () => {
    expect(configuredBuild(config, 'gifts', FALLBACK)).toBe('s1');
    expect(configuredBuild(config, 'gifts', 'https://gifts.example.com/builds/zz/mf-manifest.json')).toBeUndefined();
  });

  it("is none without `remoteBuilds` (a static config.json); telemetry then labels the manifest's own", () => {
    const bare = { remotes: { gifts: OWN } };
    expect(configuredBuild(bare, 'gifts', OWN)).toBeUndefined();
    expect(attributedBuild(bare, 'gifts', OWN, { buildId: 'g-41' })).toBe('g-41');
    expect(attributedBuild(undefined, 'news', 'https://news.example.com/mf-manifest.json', {})).toBe('unknown');
  });
});
