import { readPort } from 'shared/node/env';
import { createWebpackConfig } from '../webpack.config.base';

export default createWebpackConfig({
  name: 'gifts',
  dir: __dirname,
  port: readPort('gifts'),
  title: 'Gifts remote',
});
