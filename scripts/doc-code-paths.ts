/**
 * The repository paths the Markdown writes as code (`deploy/gate.ts`), checked against the tree.
 * Which spans count is written once here (see isPathForm); the test says it in prose.
 */
import { posix } from 'node:path';
import { withoutFences, type Link, type Problem, type Tree } from './doc-links';

/** What the path check asks of the tree beyond the link check. */
export interface PathTree extends Tree {
  /** The repository's top-level folders (`api`, `deploy`, …). */
  topFolders: ReadonlySet<string>;
  /** The folders holding a package.json (the workspaces, the remote template), root excluded. */
  packageFolders: readonly string[];
  /** Whether git ignores the path: a build output or a data folder, absent from a checkout. */
  ignored(path: string): boolean;
  /** Whether the path is a workspace's import specifier (`shared/remotes`) or a folder of them, as its package.json exports. */
  exported(path: string): boolean;
}

const PLACEHOLDER_OR_GLOB = /[*?{}[\]<>$=…]|\.\.\./;
const SOURCE_FILE = /\/[^/]+\.(?:ts|tsx|mts|cts|md)$/;

/** Every single-token code span outside fenced blocks and comments, without a trailing `:line` or `#anchor`. */
export function findCodeSpans(markdown: string): Link[] {
  const prose = withoutFences(markdown).replace(/<!--[\s\S]*?-->/g, (text) => text.replace(/[^\n]/g, ' '));
  const spans: Link[] = [];
  for (const match of prose.matchAll(/(`+)([^`\n]+?)\1/g)) {
    const token = (match[2] ?? '').trim();
    if (!token || /\s/.test(token)) continue;
    const target = token.replace(/#.*$/, '').replace(/:\d+(?:-\d+)?$/, '');
    spans.push({ line: prose.slice(0, match.index).split('\n').length, target });
  }
  return spans;
}

/**
 * Whether a span names a repository path: it starts with a top-level folder and a slash, or it
 * holds a slash and ends in a source file's extension (`.ts`, `.tsx`, `.md`: a built or deployed
 * file such as `builds/latest.json` is no repository path). Globs, placeholders (`<remote>`,
 * `$X`, `…`), assignments, URLs and site paths (`/config.json`) never count.
 */
export function isPathForm(target: string, topFolders: ReadonlySet<string>): boolean {
  if (PLACEHOLDER_OR_GLOB.test(target) || /^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
  if (target.startsWith('/') || target.startsWith('./') || target.startsWith('../')) return false;
  const [first] = target.split('/');
  return (target.includes('/') && topFolders.has(first ?? '')) || SOURCE_FILE.test(target);
}

/** A path may be written from the root, the Markdown file's folder or a package's folder (`server/main.ts` of a remote). */
function candidates(file: string, path: string, tree: PathTree): string[] {
  return ['', posix.dirname(file), ...tree.packageFolders].map((folder) => posix.normalize(posix.join(folder, path)));
}

/** Checks one file's code paths against the tree. */
export function checkCodePaths(
  file: string,
  markdown: string,
  tree: PathTree,
): { checked: number; problems: Problem[] } {
  const problems: Problem[] = [];
  let checked = 0;
  for (const span of findCodeSpans(markdown)) {
    if (!isPathForm(span.target, tree.topFolders)) continue;
    checked += 1;
    const path = span.target.replace(/\/$/, '');
    if (candidates(file, path, tree).some((place) => tree.kind(place))) continue;
    if (tree.exported(path) || tree.ignored(path)) continue;
    problems.push({ file, ...span, reason: `${path} does not exist` });
  }
  return { checked, problems };
}
