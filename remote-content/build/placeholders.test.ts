/** @jest-environment node */
import { findPlaceholders } from './placeholders';

const html = (body: string) => ({ title: 'Terms', html: body });

describe('findPlaceholders', () => {
  it.each([
    ['<p>Run by [Operator name].</p>', '[Operator name]'],
    ['<p>Last updated: [date].</p>', '[date]'],
    ['<blockquote><p><strong>Sample text.</strong> A sample.</p></blockquote>', 'Sample text'],
    ['<p>Then replace every placeholder in square brackets.</p>', 'replace every placeholder'],
    ['<p>Write to {{contactEmail}}.</p>', '{{contactEmail}}'],
    ['<p>Lorem ipsum dolor.</p>', 'Lorem ipsum'],
    ['<p>Prizes: TBD.</p>', 'TBD'],
  ])('finds the placeholder in %p', (body, text) => {
    expect(findPlaceholders(html(body)).join()).toContain(text);
  });

  it('finds one in the title', () => {
    expect(findPlaceholders({ title: '[Title]', html: '<p>Text</p>' })).toHaveLength(1);
  });

  it('leaves links and ordinary text alone', () => {
    expect(
      findPlaceholders(
        html('<p>Read the <a href="/terms">terms</a> (in full) at <a href="mailto:a@b.test">a@b.test</a>.</p>'),
      ),
    ).toEqual([]);
  });
});
