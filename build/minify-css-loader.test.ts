import type { LoaderContext } from 'webpack';
import minifyCssLoader from './minify-css-loader';

const context = { resourcePath: '/app/src/styles/page.css' } as LoaderContext<object>;

it('minifies a stylesheet: no comments, no indentation, the same rules', () => {
  const source = `/* The page's frame. */
.p-frame {
  margin: 0 auto;
  color: var(--p-color-text);
}

@media (min-width: 40rem) {
  .p-frame {
    padding: 16px;
  }
}
`;
  expect(minifyCssLoader.call(context, source)).toBe(
    '.p-frame{margin:0 auto;color:var(--p-color-text)}@media(min-width:40rem){.p-frame{padding:16px}}\n',
  );
});
