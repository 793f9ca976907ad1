/** @jest-environment node */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anchors, checkFile, findLinks, slug, type Tree } from './doc-links';

const ROOT = join(__dirname, '..');
/** The site's own pages: their links are the site's routes (`/terms`), not files of the repository. */
const SITE_PAGES = /^remote-[^/]+\/content\//;

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
});
