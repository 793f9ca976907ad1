/** @jest-environment node */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkCodePaths, findCodeSpans, isPathForm, type PathTree } from './doc-code-paths';
import { anchors, checkFile, findLinks, slug, type Tree } from './doc-links';

const ROOT = join(__dirname, '..');
/** The site's own pages: their links are the site's routes (`/terms`), not files of the repository. */
const SITE_PAGES = /^remote-[^/]+\/content\//;
/** The remote docs/adding-a-remote.md makes as its example: its files exist once a team runs the command. */
const EXAMPLE_REMOTE = /^(remote-news\/|src\/exposed\/news-page\.tsx$)/;

/** Files in the tree as git sees it: tracked, or new and not ignored (a link to a build output is broken on GitHub). */
function gitFiles(...patterns: string[]): string[] {
  const output = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...patterns],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return output.split('\0').filter((path) => path && existsSync(join(ROOT, path)));
}

function repositoryTree(): Tree {
  const files = new Set(gitFiles());
  const dirs = new Set<string>();
  for (const file of files) {
    for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) dirs.add(file.slice(0, at));
  }
  return {
    kind: (path) => (files.has(path) ? 'file' : dirs.has(path) ? 'dir' : undefined),
    read: (path) => readFileSync(join(ROOT, path), 'utf8'),
  };
}

/** The repository's tree with what the code-path check asks: its top folders, git's ignores, the workspaces' exports. */
function repositoryPathTree(): PathTree {
  const tree = repositoryTree();
  const files = gitFiles();
  const topFolders = new Set(files.flatMap((path) => (path.includes('/') ? [path.split('/')[0] ?? ''] : [])));
  const packageFolders = files.filter((path) => path.endsWith('/package.json')).map((path) => dirname(path));
  const exportsOf = (folder: string): string[] => {
    const manifest = join(ROOT, folder, 'package.json');
    if (!existsSync(manifest)) return [];
    return Object.keys((JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: object }).exports ?? {});
  };
  // A folder's pattern (`dist/`) matches only a path git knows as a folder: ask for both spellings.
  const ignoredPaths = new Map<string, boolean>();
  const ignoredBy = (path: string) => {
    const known = ignoredPaths.get(path);
    if (known !== undefined) return known;
    const ignored = spawnSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: ROOT }).status === 0;
    ignoredPaths.set(path, ignored);
    return ignored;
  };
  return {
    ...tree,
    topFolders,
    packageFolders,
    ignored: (path) => ignoredBy(path) || ignoredBy(`${path}/`),
    exported: (path) => {
      const [folder = '', ...rest] = path.split('/');
      const specifier = `./${rest.join('/')}`;
      return exportsOf(folder).some((name) => name === specifier || name.startsWith(`${specifier}/`));
    },
  };
}

/** A tree made of the given files, for checking the checker. */
function treeOf(files: Record<string, string>): Tree {
  return {
    kind: (path) =>
      path in files ? 'file' : Object.keys(files).some((file) => file.startsWith(`${path}/`)) ? 'dir' : undefined,
    read: (path) => files[path] ?? '',
  };
}

describe('findLinks', () => {
  it('finds inline links, images and reference definitions, with their lines, outside code', () => {
    const markdown = [
      '# Title', // 1
      'See [the API](api/README.md) and ![a picture](docs/a.png "its title").', // 2
      'A link whose text [runs over', // 3
      'two lines](docs/x.md#part).', // 4
      'Not `[a span](in-code.md)`, nor a `[bracketed]` text.', // 5
      '```sh', // 6
      'echo "[a fence](fenced.md)"', // 7
      '```', // 8
      '[defined]: <docs/defined.md>', // 9
      '[A [nested] text](nested.md) and <https://example.com>.', // 10
    ].join('\n');
    expect(findLinks(markdown)).toEqual([
      { line: 2, target: 'api/README.md' },
      { line: 2, target: 'docs/a.png' },
      { line: 4, target: 'docs/x.md#part' },
      { line: 9, target: 'docs/defined.md' },
      { line: 10, target: 'nested.md' },
    ]);
  });
});

describe('anchors', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Speed against a monolith: `npm run bench`')).toBe('speed-against-a-monolith-npm-run-bench');
    expect(slug('Third parties (all optional, all off by default)')).toBe(
      'third-parties-all-optional-all-off-by-default',
    );
    expect(slug('Pinned builds, rollback and pruning')).toBe('pinned-builds-rollback-and-pruning');
    expect(slug('1. Create its folder from the template')).toBe('1-create-its-folder-from-the-template');
    expect(slug('A [linked](x.md) *word* and snake_case')).toBe('a-linked-word-and-snake_case');
  });

  it('numbers repeated headings and ignores fenced ones', () => {
    const markdown = ['# Notes', '## Notes', '```', '# Not a heading', '```', '### Notes'].join('\n');
    expect([...anchors(markdown)]).toEqual(['notes', 'notes-1', 'notes-2']);
  });
});

describe('checkFile', () => {
  const tree = treeOf({
    'README.md': '',
    'docs/guide.md': '# Guide\n\n## Running it\n',
    'docs/decisions/0001-first.md': '# First\n',
    'api/src/index.ts': '',
  });

  it('names the file, line and target of each broken link, and nothing else', () => {
    const markdown = [
      '# Gift Box', // 1
      '[Guide](docs/guide.md), [running](docs/guide.md#running-it), [here](#gift-box).', // 2
      '[The API](api/src/index.ts), [its folder](api/), [the first](docs/decisions/0001-first.md).', // 3
      '[Moved](docs/moved.md) and [gone](docs/guide.md#stopping-it).', // 4
      '[Elsewhere](../outside.md), [a site](https://example.com/x.md), [mail](mailto:a@example.com).', // 5
      '[Nowhere](#no-such-heading).', // 6
    ].join('\n');
    const { checked, problems } = checkFile('README.md', markdown, tree);
    expect(problems).toEqual([
      { file: 'README.md', line: 4, target: 'docs/moved.md', reason: 'docs/moved.md does not exist' },
      {
        file: 'README.md',
        line: 4,
        target: 'docs/guide.md#stopping-it',
        reason: 'docs/guide.md has no heading #stopping-it',
      },
      { file: 'README.md', line: 5, target: '../outside.md', reason: 'it points outside the repository' },
      { file: 'README.md', line: 6, target: '#no-such-heading', reason: 'README.md has no heading #no-such-heading' },
    ]);
    expect(checked).toBe(10);
  });

  it('resolves a link from the folder of the file it is in', () => {
    const markdown = '[The first](decisions/0001-first.md), [the README](../README.md), [wrong](guide/README.md)';
    expect(checkFile('docs/guide.md', markdown, tree).problems).toEqual([
      { file: 'docs/guide.md', line: 1, target: 'guide/README.md', reason: 'docs/guide/README.md does not exist' },
    ]);
  });
});

describe('code paths', () => {
  const TOP = new Set(['api', 'deploy', 'docs', 'shared']);

  it('reads single-token code spans outside fences and comments, without a line number or anchor', () => {
    const markdown = [
      'See `deploy/gate.ts:40` and `docs/operations.md#logs`, not `npm run gate`.', // 1
      '```', // 2
      'deploy/fenced.ts', // 3
      '`deploy/in-a-fence.ts`', // 4
      '```', // 5
      '<!-- `deploy/commented.ts` -->', // 6
      '``api/src/two-ticks.ts``', // 7
    ].join('\n');
    expect(findCodeSpans(markdown)).toEqual([
      { line: 1, target: 'deploy/gate.ts' },
      { line: 1, target: 'docs/operations.md' },
      { line: 7, target: 'api/src/two-ticks.ts' },
    ]);
  });

  it('counts a path under a top-level folder, or any path to a source file; never globs, placeholders, URLs or site paths', () => {
    const counted = ['deploy/gate.ts', 'api/src/', 'shared/remotes', 'src/exposed/home-page.tsx', 'server/main.md'];
    const skipped = [
      'deploy/*.ts',
      'docs/decisions/00NN-x.md',
      '<remote>/server/main.ts',
      '$ROOT/deploy/x.ts',
      'remote-…/x.ts',
      'https://example.com/x.ts',
      '/remote-builds.json',
      './local.ts',
      'HOST_ORIGIN=https://x',
      'package.json',
      'builds/latest.json',
      'prerender/render.js',
      'giftbox_page_views_total',
      'npm',
    ];
    expect(counted.filter((token) => !isPathForm(token, TOP))).toEqual([]);
    expect(skipped.filter((token) => isPathForm(token, TOP))).toEqual(['docs/decisions/00NN-x.md']);
  });

  it('names each path that is neither in the tree, ignored by git, nor a workspace export', () => {
    const tree: PathTree = {
      ...treeOf({
        'deploy/gate.ts': '',
        'api/src/index.ts': '',
        'docs/guide.md': '',
        'remote-x/src/exposed/page.tsx': '',
      }),
      topFolders: new Set(['api', 'deploy', 'docs', 'remote-x', 'shared']),
      packageFolders: ['api', 'remote-x'],
      ignored: (path) => path.startsWith('api/dist'),
      exported: (path) => path === 'shared/remotes',
    };
    const markdown = [
      '`deploy/gate.ts`, `api/src/`, `api/dist/index.js`, `shared/remotes`, `src/exposed/page.tsx`', // 1
      '`deploy/moved.ts`, `shared/src/node/cache-policy.ts`, `exposed/gone.tsx`, `guide.md`', // 2
    ].join('\n');
    expect(checkCodePaths('docs/guide.md', markdown, tree)).toEqual({
      checked: 8,
      problems: [
        { file: 'docs/guide.md', line: 2, target: 'deploy/moved.ts', reason: 'deploy/moved.ts does not exist' },
        {
          file: 'docs/guide.md',
          line: 2,
          target: 'shared/src/node/cache-policy.ts',
          reason: 'shared/src/node/cache-policy.ts does not exist',
        },
        { file: 'docs/guide.md', line: 2, target: 'exposed/gone.tsx', reason: 'exposed/gone.tsx does not exist' },
      ],
    });
  });
});

describe('the repository', () => {
  const documents = gitFiles('*.md').filter((path) => !SITE_PAGES.test(path));

  it('documents with the README, docs/ and every workspace', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/adding-a-remote.md', 'api/README.md']));
    expect(documents.some((path) => path.startsWith('docs/decisions/'))).toBe(true);
  });

  it('has no relative link to a file, folder or heading that does not exist', () => {
    const tree = repositoryTree();
    let checked = 0;
    const broken: string[] = [];
    for (const file of documents) {
      const result = checkFile(file, tree.read(file), tree);
      checked += result.checked;
      broken.push(...result.problems.map(({ line, target, reason }) => `${file}:${line}: ${target} (${reason})`));
    }
    expect(broken).toEqual([]);
    // The documentation links to itself a great deal: finding almost nothing means the finding broke.
    expect(checked).toBeGreaterThan(50);
  });

  it('names in code only repository paths that exist (README.md and docs/)', () => {
    const tree = repositoryPathTree();
    let checked = 0;
    const stale: string[] = [];
    for (const file of documents.filter((path) => path === 'README.md' || path.startsWith('docs/'))) {
      const result = checkCodePaths(file, tree.read(file), tree);
      checked += result.checked;
      const problems = result.problems.filter(({ target }) => !EXAMPLE_REMOTE.test(target));
      stale.push(...problems.map(({ line, target, reason }) => `${file}:${line}: ${target} (${reason})`));
    }
    expect(stale).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });
});
