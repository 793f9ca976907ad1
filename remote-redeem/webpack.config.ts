import { readPort } from 'server/env';
import { createWebpackConfig } from '../webpack.config.base';

export default createWebpackConfig({
  name: 'redeem',
  dir: __dirname,
  port: readPort('redeem'),
  title: 'Redeem remote',
});
