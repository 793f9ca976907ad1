/** Starts an HTTP server for one part, logs where it listens, and closes cleanly on a signal. */
import { createServer, type Server } from 'node:http';
import { createStaticHandler, type RequestHandler } from './static-server';

export function serve(name: string, port: number, handler: RequestHandler): Promise<Server> {
  // Long enough for any real URL; a longer one gets Node's 431 rather than our 404 page.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    // A handler that throws before returning its promise must not take the server down.
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        console.error(`[${name}] request failed`, error);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end('Internal Server Error');
        } else {
          res.destroy();
        }
      });
  });
  server.keepAliveTimeout = 5000;
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      console.log(`[${name}] listening on http://localhost:${actualPort}`);
      resolve(server);
    });
  });
}

/** Serves a remote's built folder with CORS for the host's origin. */
export function serveRemoteDist(name: string, port: number, root: string, hostOrigin: string): Promise<Server> {
  return serve(name, port, createStaticHandler({ root, corsOrigins: [hostOrigin] }));
}
