import { readPort } from 'server/env';
import { createWebpackConfig } from '../webpack.config.base';
import { configAtHostname, pageHostname } from './server/page-hostname';
import { defaultOrigins, runtimeConfigFromEnv } from './server/runtime-config-from-env';

export default createWebpackConfig({
  name: 'host',
  dir: __dirname,
  port: readPort('host'),
  title: 'Gift Box',
  // Development builds only: the page reloads when a remote's development server has a new build.
  developmentEntries: ['./src/dev/development-entry.ts'],
  devServer: {
    setupMiddlewares(middlewares, devServer) {
      const config = runtimeConfigFromEnv(process.env);
      const followed = defaultOrigins(process.env);
      devServer.app?.get('/config.json', (req, res) => {
        const hostname = pageHostname(req.headers.host, followed);
        res.setHeader('Cache-Control', 'no-cache');
        res.json(hostname === undefined ? config : configAtHostname(config, followed, hostname));
      });
      return middlewares;
    },
  },
});
