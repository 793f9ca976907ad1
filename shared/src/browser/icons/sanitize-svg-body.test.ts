import { sanitizeSvgBody } from './sanitize-svg-body';

/** What the page would draw from the sanitised body. */
function drawn(body: string | undefined): SVGSVGElement {
  const holder = document.createElement('div');
  holder.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg">${body ?? ''}</svg>`;
  return holder.firstElementChild as SVGSVGElement;
}

describe('sanitizeSvgBody', () => {
  it.each([
    ['a path', '<path fill="currentColor" d="M12 2L2 22h20z"/>', 'path[d="M12 2L2 22h20z"]'],
    [
      'groups, gradients and internal references',
      '<defs><linearGradient id="a"><stop offset="0"/></linearGradient></defs><g fill="url(#a)"><use href="#b"/><path id="b" d="M0 0h1v1z"/></g>',
      'g[fill="url(#a)"] use[href="#b"]',
    ],
  ])('keeps %s', (_what, body, selector) => {
    expect(drawn(sanitizeSvgBody(body)).querySelector(selector)).not.toBeNull();
  });

  it('draws an animated icon still: animations could rewrite a reference after sanitising', () => {
    const svg = drawn(
      sanitizeSvgBody(
        '<circle cx="12" cy="12" r="4"><animate attributeName="href" values="javascript:alert(1)" dur="1s"/></circle>',
      ),
    );
    expect(svg.querySelector('circle')).not.toBeNull();
    expect(svg.querySelector('animate')).toBeNull();
  });

  it.each([
    ['a script', '<script>alert(1)</script><path d="M0 0h1"/>', 'script'],
    ['an event handler', '<path d="M0 0" onload="alert(1)"/>', '[onload]'],
    ['an image that runs code on error', '<image href="x" onerror="alert(1)"/><path d="M0 0h1"/>', 'image, [onerror]'],
    [
      'foreign content',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject><path d="M0 0h1"/>',
      'foreignObject, div',
    ],
    ['a link out', '<a href="https://evil.example"><path d="M0 0"/></a>', 'a, [href^="http"]'],
    ['a use of an outside file', '<use href="https://evil.example/sprite.svg#x"/><path d="M0 0h1"/>', 'use[href]'],
    ['a javascript: reference', '<use xlink:href="javascript:alert(1)"/><path d="M0 0h1"/>', 'use[href], use[*|href]'],
    ['an outside url() in a style', '<path style="fill:url(https://evil.example/track)" d="M0 0"/>', '[style]'],
    ['a style element', '<style>@import url(https://evil.example/x.css)</style><path d="M0 0h1"/>', 'style'],
  ])('removes %s, and keeps the drawing', (_what, body, dangerous) => {
    const clean = sanitizeSvgBody(body);
    expect(clean).toBeDefined();
    const svg = drawn(clean);
    expect(svg.querySelector(dangerous)).toBeNull();
    expect(svg.querySelector('path')).not.toBeNull();
    expect(clean).not.toMatch(/alert|evil\.example/);
  });

  it('gives nothing when nothing drawable is left', () => {
    expect(sanitizeSvgBody('<script>alert(1)</script>')).toBeUndefined();
    expect(sanitizeSvgBody('')).toBeUndefined();
  });
});
