import { sanitizePayloadHtml } from './sanitize-payload-html';

/** The sanitised HTML, parsed as the page parses it. */
function parsed(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = sanitizePayloadHtml(html);
  return holder;
}

describe('sanitizePayloadHtml', () => {
  it('keeps what the build writes: headings, lists, tables, and links of this site or the allowed schemes', () => {
    const html =
      '<h2>How</h2><ol start="3"><li><strong>one</strong> <em>two</em></li></ol><table><thead><tr><th align="center">a</th></tr></thead>' +
      '<tbody><tr><td align="right">1</td></tr></tbody></table><p><a href="/game">Play</a> <a href="/about#contact" title="Us">Contact</a> ' +
      '<a href="https://example.com/">Out</a> <a href="mailto:hi@example.com">Mail</a> <a href="tel:+441130000000">Call</a> ' +
      '<abbr title="Gift Box">GB</abbr></p>';
    expect(sanitizePayloadHtml(html)).toBe(html);
  });

  it('drops scripts with their content, and every event handler', () => {
    const holder = parsed(
      '<p onclick="steal()">Hi <a href="/terms" onmouseover="steal()">terms</a></p><script>steal()</script>' +
        '<img src="x" onerror="steal()"><svg onload="steal()"><circle /></svg><details open ontoggle="steal()">x</details>',
    );
    expect(holder.innerHTML).not.toMatch(/steal|script|onclick|onmouseover|onerror|onload|ontoggle|<img|<svg/i);
    expect(holder.innerHTML).toContain('<p>Hi <a href="/terms">terms</a></p>');
    expect(holder.querySelectorAll('*').length).toBe(2);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(2)',
    ' javascript:alert(3)',
    'java\tscript:alert(4)',
    'data:text/html,<script>alert(5)</script>',
    'vbscript:alert(6)',
    '//evil.example/',
    '/\\evil.example/',
  ])('keeps the text of a link to %j, never the link', (href) => {
    const holder = parsed(`<p><a href="${href.replace(/"/g, '&quot;')}">text</a></p>`);
    const link = holder.querySelector('a');
    expect(link?.textContent).toBe('text');
    expect(link?.hasAttribute('href')).toBe(false);
  });

  it('drops frames, forms, styles, classes, ids and targets', () => {
    const holder = parsed(
      '<iframe src="https://evil.example"></iframe><iframe srcdoc="<script>steal()</script>"></iframe>' +
        '<form action="https://evil.example"><input name="q"><button formaction="javascript:steal()">Go</button></form>' +
        '<style>body{display:none}</style><div class="x" id="root" style="position:fixed">Box</div>' +
        '<a href="https://example.com" target="_blank" data-x="1" aria-hidden="true">out</a><object data="x.swf"></object>',
    );
    expect(holder.innerHTML).not.toMatch(
      /iframe|srcdoc|steal|form|input|button|style|class=|id=|target=|data-|aria-|object|evil/i,
    );
    expect(holder.textContent).toContain('Box');
    expect(holder.innerHTML).toContain('<a href="https://example.com">out</a>');
  });

  it('keeps an attribute only on the tags it belongs to', () => {
    expect(sanitizePayloadHtml('<p title="x" align="left">a</p><td-x></td-x><li start="2">b</li>')).toBe(
      '<p>a</p><li>b</li>',
    );
  });
});
