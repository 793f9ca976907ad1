/**
 * The lint rules that keep code where it runs and the import graph acyclic: run through ESLint
 * with the repository's own configuration, on sources that break them.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * ESLint's API with the repository's configuration, in a process of its own (it loads its config
 * in a way jest's VM refuses), started once for the file: loading the configuration is most of a
 * lint's time. A line of JSON `{ id, text, file }` in, `{ id, messages }` out.
 */
const LINT_SERVER = `
const { ESLint } = require('eslint');
const eslint = new ESLint({ cwd: process.cwd() });
require('node:readline').createInterface({ input: process.stdin }).on('line', async (line) => {
  const { id, text, file } = JSON.parse(line);
  const [result] = await eslint.lintText(text, { filePath: file });
  const messages = (result ? result.messages : []).map(({ ruleId, message }) => ({ ruleId, message }));
  process.stdout.write(JSON.stringify({ id, messages }) + '\\n');
});
`;

let server: ChildProcessWithoutNullStreams | undefined;
const pending = new Map<number, { resolve: (messages: LintMessage[]) => void; reject: (error: Error) => void }>();
let nextId = 0;

function lintServer(): ChildProcessWithoutNullStreams {
  if (server) return server;
  const child = spawn(process.execPath, ['-e', LINT_SERVER], { cwd: ROOT });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id, messages } = JSON.parse(line) as { id: number; messages: LintMessage[] };
    pending.get(id)?.resolve(messages);
    pending.delete(id);
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // ESLint failing to start (a broken configuration) fails the waiting tests with its words.
  child.on('exit', (code) => {
    for (const { reject } of pending.values()) reject(new Error(`ESLint exited (code ${code}): ${stderr}`));
    pending.clear();
  });
  server = child;
  return child;
}

afterAll(() => {
  server?.stdin.end();
  server?.kill();
});

/** The messages ESLint gives `text` as if it were `file`. */
function lint(text: string, file: string): Promise<LintMessage[]> {
  const id = (nextId += 1);
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    lintServer().stdin.write(`${JSON.stringify({ id, text, file })}\n`);
  });
}

async function messagesFor(text: string, file: string): Promise<string[]> {
  return (await lint(text, join(ROOT, file))).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('where code runs', () => {
  it("keeps Node built-ins and the servers' package out of browser code", async () => {
    const messages = await messagesFor(
      "import { readFileSync } from 'node:fs';\nimport { readPort } from 'server/env';\nexport const x = [readFileSync, readPort];\n",
      'host/src/probe.ts',
    );
    expect(messages).toEqual([
      expect.stringContaining('no Node built-ins'),
      expect.stringContaining('`server/…` is for servers'),
    ]);
  }, 60_000);

  it('keeps test helpers out of production code, browser or Node', async () => {
    const text = "import { renderAt } from 'shared/testing/render-at';\nexport const x = renderAt;\n";
    for (const file of ['remote-gifts/src/probe.ts', 'api/src/probe.ts']) {
      expect(await messagesFor(text, file)).toEqual([expect.stringContaining('Test helpers stay in tests')]);
    }
    expect(await messagesFor(text, 'remote-gifts/src/probe.test.ts')).toEqual([]);
  }, 60_000);

  it("keeps the testbed out of production code, and one package's tests out of another", async () => {
    const testbed = "import { startCluster } from 'testbed/postgres';\nexport const x = startCluster;\n";
    for (const file of ['api/src/probe.ts', 'host/server/probe.ts', 'deploy/prometheus/probe.ts']) {
      expect(await messagesFor(testbed, file)).toEqual([
        expect.stringContaining('Production code never imports the testbed'),
      ]);
    }
    expect(await messagesFor(testbed, 'api/test/probe.test.ts')).toEqual([]);
    expect(await messagesFor(testbed, 'deploy/prometheus/probe.test.ts')).toEqual([]);
    expect(
      await messagesFor(
        "import { post } from '../../api/test/support/test-app';\nexport const x = post;\n",
        'e2e/support/probe.ts',
      ),
    ).toEqual([expect.stringContaining('Browser tests exercise the built, served apps')]);
  }, 60_000);
});

describe('the API contract in the browser', () => {
  it('lets page code import its types only; a value would bring its schemas into the page', async () => {
    const value = "import { giftViewSchema } from 'shared/api/contract';\nexport const x = giftViewSchema;\n";
    for (const file of ['host/src/probe.ts', 'remote-gifts/src/probe.tsx', 'shared/src/browser/probe.ts']) {
      expect(await messagesFor(value, file)).toEqual([expect.stringContaining("Pages take the contract's types only")]);
    }
    expect(
      await messagesFor(
        "import { API_PATHS } from './contract';\nexport const x = API_PATHS;\n",
        'shared/src/api/probe.ts',
      ),
    ).toEqual([expect.stringContaining("Pages take the contract's types only")]);
    const types = "import type { GiftView } from 'shared/api/contract';\nexport type X = GiftView;\n";
    expect(await messagesFor(types, 'remote-gifts/src/probe.ts')).toEqual([]);
    // The API and tests use the schemas.
    expect(await messagesFor(value, 'api/src/probe.ts')).toEqual([]);
    expect(await messagesFor(value, 'remote-gifts/src/probe.test.ts')).toEqual([]);
  }, 60_000);
});

describe('the router the parts share', () => {
  it('keeps react-router itself, and what the shared router leaves out, out of browser code', async () => {
    const text =
      "import { Link, createCookie } from 'react-router-dom';\nimport { useParams } from 'react-router';\nexport const x = [Link, createCookie, useParams];\n";
    for (const file of ['host/src/probe.ts', 'remote-gifts/src/probe.tsx', 'shared/src/browser/probe.ts']) {
      expect(await messagesFor(text, file)).toEqual([
        expect.stringMatching(
          /'createCookie' import from 'react-router-dom' is restricted.*Not in the router the parts share/,
        ),
        expect.stringMatching(/'react-router' import is restricted.*the router the parts share/),
      ]);
    }
    // Tests and the host's server (Node) may use all of it.
    expect(await messagesFor(text, 'host/src/probe.test.ts')).toEqual([]);
    expect(
      await messagesFor(
        "import { StaticRouter } from 'react-router-dom';\nexport const x = StaticRouter;\n",
        'host/server/probe.tsx',
      ),
    ).toEqual([]);
  }, 60_000);
});

describe('import cycles', () => {
  it('reports a cycle that goes only through type imports', async () => {
    const folder = mkdtempSync(join(__dirname, '.cycle-probe-'));
    try {
      const a = "import type { B } from './b';\nexport interface A { b?: B }\n";
      writeFileSync(join(folder, 'a.ts'), a);
      writeFileSync(join(folder, 'b.ts'), "import { type A } from './a';\nexport interface B { a?: A }\n");
      expect((await lint(a, join(folder, 'a.ts'))).map((message) => message.ruleId)).toEqual(['local/no-import-cycle']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
