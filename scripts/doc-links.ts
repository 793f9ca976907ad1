/**
 * The relative links of the repository's Markdown, checked: every `[text](path)`, `![alt](path)`
 * and `[id]: path` whose path is in the repository must name a file or folder that exists, and
 * a `#anchor` into a Markdown file (or the same file) must name one of its headings, slugged as
 * GitHub does. Pure: the files and the tree are handed in, so a test can check a made-up tree.
 */
import { posix } from 'node:path';

export interface Link {
  line: number;
  target: string;
}

export interface Problem extends Link {
  file: string;
  reason: string;
}

/** What the checker may ask of the tree: a path's kind, relative to the root, and a file's text. */
export interface Tree {
  kind(path: string): 'file' | 'dir' | undefined;
  read(path: string): string;
}

const blank = (text: string) => text.replace(/[^\n]/g, ' ');

/** Blanks out fenced code blocks, keeping line breaks, so offsets still give line numbers. */
export function withoutFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
          fence = undefined;
        }
        return blank(line);
      }
      if (marker) fence = marker;
      return marker ? blank(line) : line;
    })
    .join('\n');
}

/** Blanks out what Markdown does not read as links: code blocks, code spans (within a paragraph) and comments. */
export function withoutCode(markdown: string): string {
  return withoutFences(markdown)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(`+)(?:(?!\n[ \t]*\n)[\s\S])*?(?<!`)\1(?!`)/g, blank);
}

const INLINE_LINK =
  /!?\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\(\s*(<[^>\n]*>|[^\s()]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm;

/** Every link target in a Markdown text, with the line it starts on. */
export function findLinks(markdown: string): Link[] {
  const prose = withoutCode(markdown);
  const lineAt = (offset: number) => prose.slice(0, offset).split('\n').length;
  const links: Link[] = [];
  for (const match of prose.matchAll(INLINE_LINK)) {
    const target = (match[2] ?? '').replace(/^<|>$/g, '');
    links.push({ line: lineAt(match.index + match[0].indexOf('](') + 2), target });
  }
  for (const match of prose.matchAll(REFERENCE_DEFINITION)) {
    links.push({ line: lineAt(match.index), target: (match[1] ?? '').replace(/^<|>$/g, '') });
  }
  return links.sort((a, b) => a.line - b.line);
}

/** A heading's anchor as GitHub makes it: its text, lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file's headings make; a repeated heading gets `-1`, `-2`…, as on GitHub. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Whether a target leaves the repository's tree: a URL, a mail address, or any other scheme. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** Checks one file's links against the tree. */
export function checkFile(file: string, markdown: string, tree: Tree): { checked: number; problems: Problem[] } {
  const problems: Problem[] = [];
  let checked = 0;
  for (const link of findLinks(markdown)) {
    if (isExternal(link.target)) continue;
    checked += 1;
    const problem = (reason: string) => problems.push({ file, ...link, reason });
    const [beforeAnchor, anchor] = splitOnce(link.target, '#');
    const pathPart = beforeAnchor.replace(/\?.*$/, '');
    const path = decoded(pathPart);
    if (path === undefined) {
      problem('the path is not valid percent-encoding');
      continue;
    }
    const resolved =
      path === ''
        ? file
        : posix
            .normalize(path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(file), path))
            .replace(/\/$/, '');
    if (resolved === '..' || resolved.startsWith('../')) {
      problem('it points outside the repository');
      continue;
    }
    const kind = resolved === '.' || resolved === '' ? 'dir' : tree.kind(resolved);
    if (!kind) {
      problem(`${resolved} does not exist`);
      continue;
    }
    if (anchor && kind === 'file' && resolved.endsWith('.md')) {
      const text = resolved === file ? markdown : tree.read(resolved);
      if (!anchors(text).has((decoded(anchor) ?? anchor).toLowerCase())) {
        problem(`${resolved} has no heading #${anchor}`);
      }
    }
  }
  return { checked, problems };
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
