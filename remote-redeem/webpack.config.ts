import { join } from 'node:path';
import { readPort } from 'server/env';
import { PrerenderPlugin } from '../build/prerender-plugin';
import { createWebpackConfig } from '../webpack.config.base';

export default createWebpackConfig({
  name: 'redeem',
  dir: __dirname,
  port: readPort('redeem'),
  title: 'Redeem remote',
  // No page prerendered at build time; the redeem page is rendered with its session on the host's server.
  plugins: [new PrerenderPlugin({ render: join(__dirname, 'build', 'render-pages.tsx') })],
});
