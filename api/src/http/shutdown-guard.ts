import { type App, type Lifecycle } from '../app-context';
import { HttpError } from './errors';

/** A connection's first request while closing is served: a balancer cannot resend a POST. */
export function installShutdownGuard(app: App, lifecycle: Lifecycle): void {
  let closing = false;
  const served = new WeakSet<object>();
  app.addHook('preClose', async () => {
    closing = true;
    lifecycle.stopping = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    const connection = request.raw.socket;
    const first = !served.has(connection);
    if (first) served.add(connection);
    if (!closing) return done();
    void reply.header('connection', 'close');
    if (first) return done();
    done(new HttpError(503, 'The service is shutting down. Try again in a moment.'));
  });
}
