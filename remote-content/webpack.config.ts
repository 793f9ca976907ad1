import { join, resolve } from 'node:path';
import { readPort } from 'server/env';
import { PrerenderPlugin } from '../build/prerender-plugin';
import { createWebpackConfig } from '../webpack.config.base';
import { readOperator } from './build/operator';
import { PayloadPlugin, payloadInputs } from './build/payload-plugin';
import { CONTENT_PAGES } from './src/features/content/content-pages';

/**
 * CONTENT_DIR and DIST_DIR let a build of other text go elsewhere (the redeploy tests) without
 * touching this package's files.
 */
const contentDir = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(__dirname, 'content');
const distDir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : undefined;

const PRERENDER_PAGES = join(__dirname, 'build', 'prerender-pages.tsx');

const config = createWebpackConfig({
  name: 'content',
  dir: __dirname,
  port: readPort('content'),
  title: 'Content remote',
  plugins: [
    new PayloadPlugin({ contentDir, pages: CONTENT_PAGES, operator: readOperator() }),
    new PrerenderPlugin({ entry: PRERENDER_PAGES, inputs: payloadInputs(CONTENT_PAGES) }),
  ],
});

export default (...args: Parameters<typeof config>): ReturnType<typeof config> => {
  const built = config(...args);
  return distDir ? { ...built, output: { ...built.output, path: distDir } } : built;
};
