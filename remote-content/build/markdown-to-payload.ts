/** Turns one page's Markdown into its payload: a plain-text title and sanitised HTML. */
import { Marked, Parser, type Token, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';
import type { ContentPayload } from '../src/features/content/api/content-payload';
import { PAYLOAD_ATTRIBUTES, PAYLOAD_TAGS, PAYLOAD_URL_SCHEMES } from 'shared/html-allow-list';

const markdown = new Marked({ gfm: true, async: false });

/** The payload allow-list (the page sanitises with the same one where the HTML enters the DOM). */
export const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...PAYLOAD_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(PAYLOAD_ATTRIBUTES).map(([tag, attributes]) => [tag, [...attributes]]),
  ),
  allowedSchemes: [...PAYLOAD_URL_SCHEMES],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/** sanitize-html leaves text entity-escaped; the title is rendered as text, so undo that. */
function decodeEscapes(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function isTitleHeading(token: Token): token is Tokens.Heading {
  return token.type === 'heading' && (token as Tokens.Heading).depth === 1;
}

export function markdownToPayload(source: string): ContentPayload {
  const tokens = markdown.lexer(source);
  const headings = tokens.filter(isTitleHeading);
  // The page renders the title as its only <h1>; a second one would break the outline.
  if (headings.length !== 1) {
    throw new Error(`expected exactly one "# Title" heading, found ${headings.length}`);
  }
  const heading = headings[0]!;
  tokens.splice(tokens.indexOf(heading), 1);
  const title = decodeEscapes(sanitizeHtml(Parser.parseInline(heading.tokens), TEXT_ONLY)).trim();
  if (!title) throw new Error('the "# Title" heading is empty');
  const html = sanitizeHtml(markdown.parser(tokens), SANITIZE_OPTIONS).trim();
  return { title, html };
}
