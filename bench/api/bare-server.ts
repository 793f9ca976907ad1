/**
 * The reference: a bare Fastify 5 server with one route answering a fixed JSON object (the real
 * gift answer, BENCH_BODY), serialised by Fastify's default JSON.stringify. No logger, no
 * plugins, no hooks, no schemas, no database. Listens on 127.0.0.1:BENCH_PORT.
 */
import Fastify from 'fastify';

const body: unknown = JSON.parse(process.env.BENCH_BODY ?? '{}');
const port = Number(process.env.BENCH_PORT);

const app = Fastify({ logger: false });
app.get('/api/gifts/:giftId', async () => body);
app.get('/api/health', async () => ({ status: 'ok' }));

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

app.listen({ port, host: '127.0.0.1' }).catch((error: unknown) => {
  console.error('[bare] cannot listen', error);
  process.exit(1);
});
