/**
 * Text that must never reach a visitor: a placeholder left from a template. The build refuses a
 * payload that has one, and the tests check every published page with the same list.
 */

/** What a placeholder looks like, each with the reason a visitor would see it. */
const PLACEHOLDERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\[[^\]\n]{1,80}\]/, 'a square-bracket placeholder'],
  [/\{\{[^}\n]*\}\}/, 'an unfilled {{setting}}'],
  [/sample text/i, '"Sample text"'],
  [/replace every placeholder/i, '"replace every placeholder"'],
  [/lorem ipsum/i, 'lorem ipsum'],
  [/\b(?:TODO|TBD|FIXME)\b/, 'a TODO'],
];

/** The text of HTML: tags dropped, the few entities the Markdown pipeline writes decoded. */
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

/** Each placeholder found in a payload's title or HTML, as `what: "the text"`; none: []. */
export function findPlaceholders(payload: { title: string; html: string }): string[] {
  const text = `${payload.title}\n${textOf(payload.html)}`;
  return PLACEHOLDERS.flatMap(([pattern, what]) => {
    const found = new RegExp(pattern.source, `${pattern.flags}g`);
    return [...text.matchAll(found)].map((match) => `${what}: "${match[0]}"`);
  });
}
