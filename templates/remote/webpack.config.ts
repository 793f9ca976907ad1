import { readPort } from 'server/env';
import { createWebpackConfig } from '../webpack.config.base';

// `exposes` comes from this remote's entry in the registry (shared/src/remotes.ts).
export default createWebpackConfig({
  name: '__name__',
  dir: __dirname,
  port: readPort('__name__'),
  title: '__Name__ remote',
});
