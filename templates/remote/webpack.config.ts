import { join } from 'node:path';
import { PrerenderPlugin } from '../build/prerender-plugin';
import { createWebpackConfig } from '../webpack.config.base';
import { REMOTE_NAME, REMOTE_SPEC } from './remote-spec';

// Exposes, published routes and port come from its own spec (remote-spec.ts).
export default createWebpackConfig({
  name: REMOTE_NAME,
  dir: __dirname,
  spec: REMOTE_SPEC,
  title: '__Name__ remote',
  plugins: [new PrerenderPlugin({ entry: join(__dirname, 'build', 'prerender-pages.tsx') })],
});
