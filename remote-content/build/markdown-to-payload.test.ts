/** @jest-environment node */
import { markdownToPayload } from './markdown-to-payload';

describe('markdownToPayload', () => {
  it('takes the title from the # heading and leaves it out of the html', () => {
    const payload = markdownToPayload('# About us\n\nWe wrap *gifts*.\n\n## How\n\n- one\n- two\n');
    expect(payload.title).toBe('About us');
    expect(payload.html).toBe('<p>We wrap <em>gifts</em>.</p>\n<h2>How</h2>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
  });

  it('makes the title plain text, whatever markup the heading holds', () => {
    const { title } = markdownToPayload('# Terms &amp; *conditions* <script>alert(1)</script>&copy;\n\nText');
    expect(title).toBe('Terms & conditions ©');
  });

  it('keeps links, tables and their alignment', () => {
    const { html } = markdownToPayload(
      '# T\n\nSee [the game](/game) or [mail us](mailto:hi@example.com).\n\n| a | b |\n|:-:|---|\n| 1 | 2 |\n',
    );
    expect(html).toContain('<a href="/game">the game</a>');
    expect(html).toContain('<a href="mailto:hi@example.com">mail us</a>');
    expect(html).toContain('<th align="center">a</th>');
    expect(html).toContain('<td>2</td>');
  });

  it('strips script tags and their content', () => {
    const { html } = markdownToPayload(
      '# T\n\nBefore\n\n<script>alert("x")</script>\n\nAfter <script src="https://evil.example/x.js"></script>',
    );
    expect(html).not.toMatch(/script|alert|evil/i);
    expect(html).toContain('Before');
    expect(html).toContain('After');
  });

  it('strips event handler attributes', () => {
    const { html } = markdownToPayload(
      '# T\n\n<p onclick="steal()">Hi <a href="/terms" onmouseover="steal()">terms</a></p>\n\n<img src="x" onerror="steal()">\n',
    );
    expect(html).not.toMatch(/steal|onclick|onmouseover|onerror|<img/i);
    expect(html).toContain('<a href="/terms">terms</a>');
  });

  it('strips javascript:, data: and protocol-relative links but keeps their text', () => {
    const { html } = markdownToPayload(
      '# T\n\n[a](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">b</a> <a href=" javascript:alert(3)">c</a> ' +
        '[d](data:text/html,<b>x</b>) [e](//evil.example/)',
    );
    expect(html).not.toMatch(/javascript|alert|data:|evil/i);
    expect(html).toBe('<p><a>a</a> <a>b</a> <a>c</a> <a>d</a> <a>e</a></p>');
  });

  it('drops styles, classes, iframes, forms and link targets', () => {
    const { html } = markdownToPayload(
      '# T\n\n<div class="x" style="position:fixed">Box</div>\n\n<iframe src="https://evil.example"></iframe>\n\n' +
        '<form action="https://evil.example"><input name="q"></form>\n\n<a href="https://example.com" target="_blank">out</a>',
    );
    expect(html).not.toMatch(/class=|style=|iframe|form|input|target=|evil/i);
    expect(html).toContain('Box');
    expect(html).toContain('<a href="https://example.com">out</a>');
  });

  it('needs exactly one non-empty title heading', () => {
    expect(() => markdownToPayload('No heading here')).toThrow('found 0');
    expect(() => markdownToPayload('# One\n\n# Two')).toThrow('found 2');
    expect(() => markdownToPayload('# <script>x</script>\n\ntext')).toThrow('empty');
  });
});
