/** The repository paths the Markdown writes as code (`deploy/gate.ts`), checked against the tree. */
import { posix } from 'node:path';
import { withoutFences, type Link, type Problem, type Tree } from './doc-links';

export interface PathTree extends Tree {
  topFolders: ReadonlySet<string>;
  packageFolders: readonly string[];
  /** Absent from a checkout: a build output or a data folder. */
  ignored(path: string): boolean;
  /** An import specifier a package.json exports (`shared/remotes`), or a folder of them. */
  exported(path: string): boolean;
}

const PLACEHOLDER_OR_GLOB = /[*?{}[\]<>$=…]|\.\.\./;
const SOURCE_FILE = /\/[^/]+\.(?:ts|tsx|mts|cts|md)$/;

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
 * A path under a top-level folder, or any path to a `.ts`, `.tsx` or `.md` file; never globs,
 * placeholders, URLs or site paths.
 */
export function isPathForm(target: string, topFolders: ReadonlySet<string>): boolean {
  if (PLACEHOLDER_OR_GLOB.test(target) || /^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
  if (target.startsWith('/') || target.startsWith('./') || target.startsWith('../')) return false;
  const [first] = target.split('/');
  return (target.includes('/') && topFolders.has(first ?? '')) || SOURCE_FILE.test(target);
}

/** `server/main.ts` may mean a remote's. */
function candidates(file: string, path: string, tree: PathTree): string[] {
  return ['', posix.dirname(file), ...tree.packageFolders].map((folder) => posix.normalize(posix.join(folder, path)));
}

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
