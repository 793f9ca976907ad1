import { readPort } from 'shared/node/env';
import { createWebpackConfig } from '../webpack.config.base';
import { runtimeConfigFromEnv } from './server/runtime-config-from-env';

export default createWebpackConfig({
  name: 'host',
  dir: __dirname,
  port: readPort('host'),
  title: 'Gift Box',
  devServer: {
    setupMiddlewares(middlewares, devServer) {
      const config = runtimeConfigFromEnv(process.env);
      devServer.app?.get('/config.json', (_req, res) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.json(config);
      });
      return middlewares;
    },
  },
});
