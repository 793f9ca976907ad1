import { join } from 'node:path';
import { readPort } from 'shared/node/env';
import { PrerenderPlugin } from 'shared/node/prerender-plugin';
import { createWebpackConfig } from '../webpack.config.base';

export default createWebpackConfig({
  name: 'gifts',
  dir: __dirname,
  port: readPort('gifts'),
  title: 'Gifts remote',
  plugins: [new PrerenderPlugin({ entry: join(__dirname, 'build', 'prerender-pages.tsx') })],
});
