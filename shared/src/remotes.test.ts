import { DEFAULT_PORTS } from './ports';
import { REMOTE_NAMES, REMOTES, remoteSpec, webpackExposes, type RemoteSpec } from './remotes';

const entries = REMOTE_NAMES.map((name) => [name, REMOTES[name] as RemoteSpec] as const);
const duplicates = (values: readonly unknown[]) => values.filter((value, index) => values.indexOf(value) !== index);

describe('the registry of remotes', () => {
  it.each(entries)('%s lives in a remote-* folder, a workspace by the root package.json', (name, spec) => {
    expect(name).toMatch(/^[a-z][a-z0-9]*$/);
    expect(spec.packageDir).toMatch(/^remote-[a-z0-9-]+$/);
  });

  it('gives every part its own port and every setting its own variable', () => {
    const parts = Object.values(DEFAULT_PORTS);
    expect(duplicates(parts.map((part) => part.port))).toEqual([]);
    expect(duplicates([...parts.map((part) => part.env), ...entries.map(([, spec]) => spec.urlEnv)])).toEqual([]);
    expect(duplicates(entries.map(([, spec]) => spec.packageDir))).toEqual([]);
  });

  it.each(entries)('%s exposes PascalCase modules, one file each in src/exposed/', (_name, spec) => {
    for (const [module, { file }] of Object.entries(spec.exposes)) {
      expect(module).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(file).toMatch(/^\.\/src\/exposed\/[a-z0-9-]+\.tsx?$/);
    }
    expect(duplicates(Object.values(spec.exposes).map(({ file }) => file))).toEqual([]);
  });

  it('serves each path from one page only', () => {
    const paths = entries.flatMap(([, spec]) =>
      Object.values(spec.exposes).flatMap(({ routes }) => routes.map((route) => route.path)),
    );
    expect(paths.every((path) => path.startsWith('/'))).toBe(true);
    expect(duplicates(paths)).toEqual([]);
  });

  it('looks remotes up by name and gives webpack their exposes', () => {
    expect(remoteSpec('redeem')?.packageDir).toBe('remote-redeem');
    expect(remoteSpec('toString')).toBeUndefined();
    expect(webpackExposes(REMOTES.gifts)).toStrictEqual({
      './GamePage': './src/exposed/game-page.tsx',
      './GiftPage': './src/exposed/gift-page.tsx',
    });
  });
});
