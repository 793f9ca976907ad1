/**
 * @jest-environment node
 *
 * SIGHUP to a real server process: one with a reload re-reads and keeps serving; one without
 * keeps Node's default.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'reload-signal-'));
  writeFileSync(join(folder, 'latest.json'), '{"id":"b1","timestamp":1}\n');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A server through `servePart` that answers with what its reload last read from `source`
 * (`withReload`), or with nothing re-read.
 */
function startServer(withReload: boolean) {
  const source = join(folder, withReload ? 'value-reloaded' : 'value-fixed');
  writeFileSync(source, 'first');
  const script = `
    import { readFileSync } from 'node:fs';
    import { servePart } from ${JSON.stringify(join(__dirname, 'part-server.ts'))};
    let value = readFileSync(${JSON.stringify(source)}, 'utf8');
    const reload = async () => { value = readFileSync(${JSON.stringify(source)}, 'utf8'); };
    void servePart('reloading', 0, (app) => void app.get('/*', async () => value), {
      buildFile: ${JSON.stringify(join(folder, 'latest.json'))},
      listenHost: '127.0.0.1',
      ${withReload ? 'onReload: reload,' : ''}
    });`;
  const file = join(folder, `server-${withReload ? 'reloading' : 'fixed'}.ts`);
  writeFileSync(file, script);
  // Node itself, with tsx's loader: the signal reaches the server, not a launcher in front of it.
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  /** Resolves once the output has matched `pattern` `times` times; rejects if the process exits first. */
  const said = async (pattern: RegExp, times = 1): Promise<RegExpMatchArray> => {
    const global = new RegExp(pattern.source, 'g');
    for (;;) {
      const matches = [...output.matchAll(global)];
      if (matches.length >= times) return matches[times - 1] as RegExpMatchArray;
      const more = new Promise<void>((resolve) => waiters.push(resolve));
      const gone = exited.then((end) => {
        throw new Error(`exited (${String(end)}) before saying ${pattern.source}:\n${output}`);
      });
      await Promise.race([more, gone]);
    }
  };
  return { child, source, exited, said };
}

it('re-reads on SIGHUP, as often as asked, serving all along; SIGTERM still stops it', async () => {
  const server = startServer(true);
  try {
    const url = (await server.said(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
    expect(await (await fetch(url)).text()).toBe('first');
    writeFileSync(server.source, 'second');
    server.child.kill('SIGHUP');
    await server.said(/\[reloading\] reloaded/);
    expect(await (await fetch(url)).text()).toBe('second');
    writeFileSync(server.source, 'third');
    server.child.kill('SIGHUP');
    await server.said(/\[reloading\] reloaded/, 2);
    expect(await (await fetch(url)).text()).toBe('third');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  } finally {
    server.child.kill('SIGKILL');
  }
}, 60_000);

it("keeps Node's default on SIGHUP without a reload: nothing to re-read, so its unit has no ExecReload=", async () => {
  const server = startServer(false);
  try {
    await server.said(/listening on/);
    server.child.kill('SIGHUP');
    expect(await server.exited).toBe('SIGHUP');
  } finally {
    server.child.kill('SIGKILL');
  }
}, 60_000);
