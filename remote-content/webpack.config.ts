import { join } from 'node:path';
import { readPort } from 'shared/node/env';
import { createWebpackConfig } from '../webpack.config.base';
import { PayloadPlugin } from './build/payload-plugin';
import { CONTENT_PAGES } from './src/features/content/content-pages';

export default createWebpackConfig({
  name: 'content',
  dir: __dirname,
  port: readPort('content'),
  title: 'Content remote',
  exposes: {
    './HomePage': './src/exposed/home-page.tsx',
    './AboutPage': './src/exposed/about-page.tsx',
    './PrivacyPolicyPage': './src/exposed/privacy-policy-page.tsx',
    './TermsPage': './src/exposed/terms-page.tsx',
  },
  plugins: [new PayloadPlugin({ contentDir: join(__dirname, 'content'), pages: CONTENT_PAGES })],
});
