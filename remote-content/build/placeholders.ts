/** Text that must never reach a visitor: a placeholder left from a template. */

const PLACEHOLDERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\[[^\]\n]{1,80}\]/, 'a square-bracket placeholder'],
  [/\{\{[^}\n]*\}\}/, 'an unfilled {{setting}}'],
  [/sample text/i, '"Sample text"'],
  [/replace every placeholder/i, '"replace every placeholder"'],
  [/lorem ipsum/i, 'lorem ipsum'],
  [/\b(?:TODO|TBD|FIXME)\b/, 'a TODO'],
];

function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#91;|&lsqb;/g, '[')
    .replace(/&#93;|&rsqb;/g, ']')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function findPlaceholders(payload: { title: string; html: string }): string[] {
  const text = `${payload.title}\n${textOf(payload.html)}`;
  return PLACEHOLDERS.flatMap(([pattern, what]) => {
    const found = new RegExp(pattern.source, `${pattern.flags}g`);
    return [...text.matchAll(found)].map((match) => `${what}: "${match[0]}"`);
  });
}
