import { readPort } from 'shared/node/env';
import { createWebpackConfig } from '../webpack.config.base';

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
});
