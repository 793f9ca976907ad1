import { sanitizePrerenderedHtml } from './prerendered-html';

describe("a remote's prerendered markup", () => {
  it('keeps the markup of a page and drops anything that could run', () => {
    const clean = sanitizePrerenderedHtml(
      '<article class="p-content" aria-busy="false"><h1 id="t" onclick="steal()">Hi</h1>' +
        '<script>steal()</script><a href="javascript:steal()">x</a><a href="/game">Play</a>' +
        '<p>Updated <time datetime="2030-02-14">February 14, 2030</time></p><img src=x onerror="steal()"></article>',
    );
    expect(clean).not.toMatch(/steal|script|onclick|onerror/);
    expect(clean).toContain('<article class="p-content" aria-busy="false"><h1 id="t">Hi</h1>');
    expect(clean).toContain('<a href="/game">Play</a>');
    expect(clean).toContain('<time datetime="2030-02-14">February 14, 2030</time>');
  });

  it("keeps the game's boxes, buttons that do nothing before the app takes over", () => {
    const clean = sanitizePrerenderedHtml(
      '<ul class="p-game__boxes" aria-label="Boxes"><li><button type="button" class="p-game__box" onclick="steal()" formaction="/x">' +
        '<span class="p-box" data-state="closed" data-x="1" aria-hidden="true"></span><span>Box 1</span></button></li></ul>' +
        '<form action="/steal"><button type="submit">Send</button></form>',
    );
    expect(clean).toContain(
      '<ul class="p-game__boxes" aria-label="Boxes"><li><button type="button" class="p-game__box">' +
        '<span class="p-box" data-state="closed" aria-hidden="true"></span><span>Box 1</span></button></li></ul>',
    );
    expect(clean).not.toMatch(/steal|onclick|formaction|data-x|<form/);
  });

  it("keeps what the content build's allow-list lets a page's prose hold", () => {
    const prose =
      '<h2>Terms</h2><p><del>Old</del> <abbr title="Gift Box">GB</abbr></p><ol start="3"><li>x</li></ol>' +
      '<table><thead><tr><th align="left">A</th></tr></thead><tbody><tr><td align="right">1</td></tr></tbody></table>';
    expect(sanitizePrerenderedHtml(prose)).toBe(prose);
  });
});
