/** @jest-environment node */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_PAGES } from '../src/features/content/content-pages';
import { OPERATOR_SETTINGS, readOperator } from './operator';
import { pagePayload } from './payload-plugin';
import { findPlaceholders } from './placeholders';

const CONTENT_DIR = join(__dirname, '..', 'content');

/** A page as a build with these variables publishes it (the development defaults without). */
function payloadOf(page: string, env: Record<string, string> = {}) {
  return pagePayload(readFileSync(join(CONTENT_DIR, `${page}.md`), 'utf8'), readOperator(env));
}

const OPERATOR = {
  OPERATOR_NAME: 'Acme Gifts Ltd',
  OPERATOR_ADDRESS: '12 High Street, Leeds LS1 4AB',
  OPERATOR_CONTACT_EMAIL: 'help@acme-gifts.test',
  TERMS_UPDATED: '2027-02-03',
  PRIVACY_UPDATED: '2027-01-15',
};

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

  it.each(['privacy-policy', 'terms'])('%s is a full text that opens with its date', (page) => {
    const { html } = payloadOf(page, OPERATOR);
    const date = page === 'terms' ? '3 February 2027' : '15 January 2027';
    expect(html.startsWith(`<p>Last updated: ${date}.</p>`)).toBe(true);
    expect(wordCount(html)).toBeGreaterThanOrEqual(600);
    // Room for every processing the policy must name (the browser's technical reports among them), no wall of text.
    expect(wordCount(html)).toBeLessThanOrEqual(1400);
    expect(html.match(/<h2>/g)?.length).toBeGreaterThanOrEqual(6);
  });

  it.each(CONTENT_PAGES)('%s has no placeholder, with the defaults or with the variables set', (page) => {
    expect(findPlaceholders(payloadOf(page))).toEqual([]);
    expect(findPlaceholders(payloadOf(page, OPERATOR))).toEqual([]);
  });

  it.each(['about', 'privacy-policy', 'terms'])('%s names the operator and links its contact address', (page) => {
    const { html } = payloadOf(page, OPERATOR);
    expect(html).toContain('Acme Gifts Ltd');
    expect(html).toContain('<a href="mailto:help@acme-gifts.test">help@acme-gifts.test</a>');
    expect(html).not.toContain(OPERATOR_SETTINGS.operatorName.fallback);
    expect(html).not.toContain(OPERATOR_SETTINGS.contactEmail.fallback);
  });

  it.each(['about', 'privacy-policy', 'terms'])('%s gives the postal address', (page) => {
    expect(payloadOf(page, OPERATOR).html).toContain('12 High Street, Leeds LS1 4AB');
  });

  it('about never asks for a gift link, and says it never will', () => {
    const { html } = payloadOf('about');
    const contact = html.slice(html.indexOf('<h2>Contact</h2>'));
    expect(contact).toContain('Never send us your gift link');
    expect(contact).not.toMatch(/includ\w* (?:its|the|your) link/i);
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
