import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteSpec } from 'shared/remotes';
import { ExposesError, remoteExposes } from './remote-exposes';

const NEWS: RemoteSpec = {
  packageDir: 'remote-news',
  port: 3005,
  portEnv: 'REMOTE_NEWS_PORT',
  urlEnv: 'REMOTE_NEWS_URL',
  exposes: {
    NewsPage: { file: './src/exposed/news-page.tsx', routes: [{ path: '/news', layout: 'default', title: 'News' }] },
    StoryPage: { file: './src/exposed/story-page.tsx', routes: [] },
  },
};
const lookup = (name: string) => (name === 'news' ? NEWS : undefined);

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'remote-exposes-'));
  dir = join(root, 'remote-news');
  mkdirSync(join(dir, 'src', 'exposed'), { recursive: true });
  for (const file of ['news-page.tsx', 'story-page.tsx', 'exposed-pages.test.tsx'])
    writeFileSync(join(dir, 'src', 'exposed', file), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function errorOf(run: () => unknown): ExposesError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExposesError) return error;
    throw error;
  }
  throw new Error('no ExposesError');
}

describe('remoteExposes', () => {
  it("gives webpack the registry's modules when the folder agrees", () => {
    expect(remoteExposes('news', dir, { lookup })).toStrictEqual({
      './NewsPage': './src/exposed/news-page.tsx',
      './StoryPage': './src/exposed/story-page.tsx',
    });
  });

  it('accepts exposes given by the config when they say the same', () => {
    const declared = { './StoryPage': 'src/exposed/story-page.tsx', './NewsPage': './src/exposed/news-page.tsx' };
    expect(Object.keys(remoteExposes('news', dir, { declared, lookup }))).toEqual(['./NewsPage', './StoryPage']);
  });

  it('names a remote with neither a registry entry nor a spec of its own', () => {
    expect(errorOf(() => remoteExposes('sport', dir, { lookup })).message).toBe(
      '"sport" is not a remote in the registry (shared/src/remotes.ts) and its webpack config gives no spec: give it its remote-spec.ts (docs/adding-a-remote.md).',
    );
  });

  it('lists every way the config disagrees with the registry', () => {
    const declared = { './NewsPage': './src/exposed/news.tsx', './WeatherPage': './src/exposed/weather-page.tsx' };
    expect(errorOf(() => remoteExposes('news', dir, { declared, lookup })).message).toBe(
      [
        "The news remote's exposed modules disagree with the registry (shared/src/remotes.ts):",
        "  - ./NewsPage is ./src/exposed/news.tsx in the webpack config's exposes but ./src/exposed/news-page.tsx in the registry",
        "  - ./StoryPage is in the registry but not in the webpack config's exposes",
        "  - ./WeatherPage is in the webpack config's exposes but not in the registry",
      ].join('\n'),
    );
  });

  it('names a registered file that does not exist and a module file the registry leaves out', () => {
    rmSync(join(dir, 'src', 'exposed', 'story-page.tsx'));
    writeFileSync(join(dir, 'src', 'exposed', 'weather-page.tsx'), '');
    const { message } = errorOf(() => remoteExposes('news', dir, { lookup }));
    expect(message).toContain('  - StoryPage: remote-news/src/exposed/story-page.tsx does not exist');
    expect(message).toContain(
      '  - remote-news/src/exposed/weather-page.tsx is in src/exposed/ but exposes no module of the registry: add it there',
    );
    expect(message).not.toContain('exposed-pages.test.tsx');
  });

  it('refuses a build from another folder than the registered one', () => {
    expect(errorOf(() => remoteExposes('news', join(root, 'news'), { lookup })).message).toContain(
      'the registry says the news remote is in remote-news/, but it is built from news/',
    );
  });
});

describe('remoteExposes of a remote that carries its own spec', () => {
  it('gives webpack the modules of the spec its config gives, for a name the registry does not hold', () => {
    expect(remoteExposes('news', dir, { given: NEWS })).toStrictEqual({
      './NewsPage': './src/exposed/news-page.tsx',
      './StoryPage': './src/exposed/story-page.tsx',
    });
  });

  it('checks the folder against that spec, naming its file', () => {
    rmSync(join(dir, 'src', 'exposed', 'story-page.tsx'));
    writeFileSync(join(dir, 'src', 'exposed', 'weather-page.tsx'), '');
    expect(errorOf(() => remoteExposes('news', dir, { given: NEWS })).message).toBe(
      [
        "The news remote's exposed modules disagree with its spec (remote-news/remote-spec.ts):",
        '  - StoryPage: remote-news/src/exposed/story-page.tsx does not exist',
        '  - remote-news/src/exposed/weather-page.tsx is in src/exposed/ but exposes no module of its spec: add it there or move it out of src/exposed/',
      ].join('\n'),
    );
  });

  it('refuses a spec of its own for a remote of the registry, whose spec is its entry', () => {
    expect(errorOf(() => remoteExposes('news', dir, { given: NEWS, lookup })).message).toContain(
      '"news" is a remote of the registry (shared/src/remotes.ts): its spec is its registry entry',
    );
  });
});
