/**
 * The lint rules that keep code where it runs and the import graph acyclic: run through ESLint
 * with the repository's own configuration, on sources that break them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** ESLint's CLI on `text` as if it were `file` (ESLint's API loads its config in a way jest's VM refuses). */
function lint(text: string, file: string): { ruleId: string | null; message: string }[] {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'],
    { cwd: ROOT, input: text, encoding: 'utf8' },
  );
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result?.messages ?? [];
}

async function messagesFor(text: string, file: string): Promise<string[]> {
  return lint(text, join(ROOT, file)).map((message) => `${message.ruleId}: ${message.message}`);
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
    for (const file of ['api/src/probe.ts', 'host/server/probe.ts']) {
      expect(await messagesFor(testbed, file)).toEqual([
        expect.stringContaining('Production code never imports the testbed'),
      ]);
    }
    expect(await messagesFor(testbed, 'api/test/probe.test.ts')).toEqual([]);
    expect(
      await messagesFor(
        "import { post } from '../../api/test/support/test-app';\nexport const x = post;\n",
        'e2e/support/probe.ts',
      ),
    ).toEqual([expect.stringContaining('Browser tests exercise the built, served apps')]);
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
      expect(lint(a, join(folder, 'a.ts')).map((message) => message.ruleId)).toEqual(['local/no-import-cycle']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
