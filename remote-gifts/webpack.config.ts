import { join } from 'node:path';
import { readPort } from 'server/env';
import { PrerenderPlugin } from '../build/prerender-plugin';
import { createWebpackConfig } from '../webpack.config.base';

export default createWebpackConfig({
  name: 'gifts',
  dir: __dirname,
  port: readPort('gifts'),
  title: 'Gifts remote',
  plugins: [
    new PrerenderPlugin({
      entry: join(__dirname, 'build', 'prerender-pages.tsx'),
      render: join(__dirname, 'build', 'render-pages.tsx'),
    }),
  ],
});
