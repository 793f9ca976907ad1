/** @jest-environment node */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_PAGES } from '../src/features/content/content-pages';
import { markdownToPayload } from './markdown-to-payload';

const CONTENT_DIR = join(__dirname, '..', 'content');

function payloadOf(page: string) {
  return markdownToPayload(readFileSync(join(CONTENT_DIR, `${page}.md`), 'utf8'));
}

function wordCount(html: string): number {
  return html
    .replace(/<[^>]+>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
}

describe('the authored content', () => {
  it.each(CONTENT_PAGES)('%s converts to a titled payload', (page) => {
    const payload = payloadOf(page);
    expect(payload.title).not.toBe('');
    expect(wordCount(payload.html)).toBeGreaterThan(200);
  });

  it.each(['privacy-policy', 'terms'])('%s is a full sample text that says so at the top', (page) => {
    const { html } = payloadOf(page);
    expect(html.startsWith('<blockquote>\n<p><strong>Sample text.</strong>')).toBe(true);
    expect(wordCount(html)).toBeGreaterThanOrEqual(600);
    expect(wordCount(html)).toBeLessThanOrEqual(1200);
    expect(html.match(/<h2>/g)?.length).toBeGreaterThanOrEqual(6);
    expect(html).toContain('[Operator name]');
  });

  it('links only to routes the site has', () => {
    const known = new Set(['/', '/game', '/about', '/privacy-policy', '/terms']);
    for (const page of CONTENT_PAGES) {
      for (const [, href] of payloadOf(page).html.matchAll(/href="([^"]+)"/g)) {
        if (href!.startsWith('/')) expect(known).toContain(href);
      }
    }
  });
});
