/**
 * The reference for page throughput: a bare http server answering every GET with one recorded
 * answer of the host's server (BENCH_PAGE_FILE), with no routing, rendering or compression.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface RecordedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const page = JSON.parse(readFileSync(process.env.BENCH_PAGE_FILE ?? '', 'utf8')) as RecordedPage;
const body = Buffer.from(page.body, 'base64');
const port = Number(process.env.BENCH_PORT);

const server = createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  response.writeHead(page.status, page.headers).end(body);
});
server.keepAliveTimeout = 65_000;

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.listen(port, '127.0.0.1');
