/** A temporary deploy target per test, with numbered fake builds beside it, for the deploy tools' tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFiles, makeBuild, read } from './fake-remote-build';

export interface DeploySandbox {
  /** The test's temporary folder, made anew before each test. */
  readonly root: string;
  /** The app's deploy target, `{root}/srv/{app}`. */
  readonly target: string;
  /** Build bN in `{root}/dist-N`, built at N seconds. */
  build(n: number): string;
  latest(): Record<string, unknown>;
  history(): string[];
  /** Every file of the target with its text, to show that a refused command changed nothing. */
  snapshot(): Record<string, string>;
}

/** Registers the hooks that make and remove the sandbox around each test of the file. */
export function deploySandbox(prefix: string, app: string): DeploySandbox {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const target = () => join(root, 'srv', app);
  return {
    get root() {
      return root;
    },
    get target() {
      return target();
    },
    build: (n) => makeBuild(join(root, `dist-${n}`), `b${n}`, n * 1000, `text of build ${n}`),
    latest: () => JSON.parse(read(join(target(), 'builds/latest.json'))) as Record<string, unknown>,
    history: () => (JSON.parse(read(join(target(), 'builds/history.json'))) as { ids: string[] }).ids,
    snapshot: () => Object.fromEntries(listFiles(target()).map((file) => [file, read(join(target(), file))])),
  };
}
