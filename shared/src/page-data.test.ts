import { jsonForScriptElement } from './page-data';

describe('JSON written into a <script> element', () => {
  it('cannot end the element or open a comment, and parses back to the same value', () => {
    const value = { text: '</script><script>alert(1)</script><!-- \u2028\u2029', n: 1 };
    const written = jsonForScriptElement(value);
    expect(written).not.toMatch(/<\/script|<!--|\u2028|\u2029/i);
    expect(JSON.parse(written)).toStrictEqual(value);
  });
});
