import { isSafeSvgBody } from './safe-svg-body';

describe('isSafeSvgBody', () => {
  it.each([
    ['a path', '<path fill="currentColor" d="M12 2L2 22h20z"/>'],
    [
      'groups, gradients and internal references',
      '<defs><linearGradient id="a"><stop offset="0"/></linearGradient></defs><g fill="url(#a)"><use href="#b"/><path id="b" d="M0 0h1v1z"/></g>',
    ],
    [
      'an animation',
      '<circle cx="12" cy="12" r="4"><animate attributeName="r" values="4;6;4" dur="1s" repeatCount="indefinite"/></circle>',
    ],
    ['an internal xlink reference', '<use xlink:href="#x"/><path id="x" d="M1 1h2"/>'],
  ])('accepts %s', (_what, body) => {
    expect(isSafeSvgBody(body)).toBe(true);
  });

  it.each([
    ['a script', '<script>alert(1)</script>'],
    ['an event handler', '<path d="M0 0" onload="alert(1)"/>'],
    ['an image that runs code on error', '<image href="x" onerror="alert(1)"/>'],
    ['foreign content', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'],
    ['a link out', '<a href="https://evil.example"><path d="M0 0"/></a>'],
    ['a use of an outside file', '<use href="https://evil.example/sprite.svg#x"/>'],
    ['a javascript: reference', '<use xlink:href="javascript:alert(1)"/>'],
    ['an outside url() in a style', '<path style="fill:url(https://evil.example/track)" d="M0 0"/>'],
    ['a style element', '<style>@import url(https://evil.example/x.css)</style>'],
    ['broken markup', '<path d="M0 0"'],
  ])('refuses %s', (_what, body) => {
    expect(isSafeSvgBody(body)).toBe(false);
  });
});
