/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, setServerLog } from 'server/log';
import { listenPart, type PartServer } from 'server/part-server';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { createHostHandler, HOST_BUILD_FILE } from './host-handler';
import { createRemoteSources } from './remote-sources';

/** A gift id of the real format: whoever has it may open the gift. */
const GIFT_ID = 'q3Vt8pLx0ZbN4mWc7RkE2sYa';

let tmp: string;
let remote: Server;
let serving: PartServer;
/** The host's log, a parsed line each, as main.ts makes it: the process's logger, named `host`. */
const lines: Array<Record<string, unknown>> = [];
let written = () => undefined as void;

beforeAll(async () => {
  setServerLog(
    createLogger('host', 'info', {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
        written();
      },
    }),
  );
  tmp = mkdtempSync(join(tmpdir(), 'host-log-test-'));
  const root = join(tmp, 'dist');
  mkdirSync(join(root, '_app', 'builds'), { recursive: true });
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(root, HOST_BUILD_FILE), '{"id":"h1","timestamp":1}\n');
  // A remote that answers 500 to everything.
  remote = createServer((_req, res) => void res.writeHead(500).end());
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  const config = parseRuntimeConfig({
    remotes: Object.fromEntries(
      ['content', 'gifts', 'redeem'].map((name) => [name, `${origin}/${name}/mf-manifest.json`]),
    ),
    apiBaseUrl: 'https://api.example.com',
  });
  const sources = createRemoteSources({ remotes: config.remotes });
  await sources.refresh();
  serving = await listenPart('host', 0, createHostHandler({ root, config, sources }), {
    buildFile: join(root, HOST_BUILD_FILE),
    listenHost: '127.0.0.1',
  });
});

afterAll(async () => {
  await serving.shutdown();
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

/** Resolves once a line `matches`. */
function logged(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    written = () => {
      const found = lines.find(matches);
      if (found) resolve(found);
    };
    written();
  });
}

test("the host's own messages are JSON lines of the one shape, at their level, named host", () => {
  expect(lines).toContainEqual(
    expect.objectContaining({
      level: 40,
      name: 'host',
      pid: process.pid,
      time: expect.any(Number),
      msg: expect.stringMatching(/^cannot read the gifts remote \(.*500.*\)/),
    }),
  );
});

test('a page request is logged once answered, with the gift id masked', async () => {
  const res = await fetch(`http://127.0.0.1:${(serving.server.address() as AddressInfo).port}/gifts/${GIFT_ID}`, {
    headers: { Accept: 'text/html' },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const line = await logged((candidate) => candidate.msg === 'request completed');
  expect(line).toStrictEqual({
    level: 30,
    time: expect.any(Number),
    pid: process.pid,
    hostname: expect.any(String),
    name: 'host',
    reqId: expect.stringMatching(/^req-[0-9a-z]+$/),
    req: { method: 'GET', url: `/gifts/${GIFT_ID.slice(0, 4)}…`, addressHash: expect.stringMatching(/^[\w-]{32}$/) },
    res: { statusCode: 200 },
    responseTime: expect.any(Number),
    msg: 'request completed',
  });
  expect(JSON.stringify(lines)).not.toContain(GIFT_ID.slice(4));
});
