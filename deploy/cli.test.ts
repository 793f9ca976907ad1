/** @jest-environment node */
import { main } from './cli';

function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return code.then((status) => ({ status, out: out.join('\n'), err: err.join('\n') }));
}

describe('the deploy tools’ one entry', () => {
  it('lists every command in its help', async () => {
    const { status, out } = await run(['--help']);
    expect(status).toBe(0);
    for (const name of ['deploy', 'stage', 'rollback', 'canary', 'gate', 'release']) {
      expect(out).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  });

  it('refuses an unknown or missing command with exit status 1 and the list of commands', async () => {
    const unknown = await run(['publish', 'srv']);
    expect(unknown.status).toBe(1);
    expect(unknown.err).toMatch(/^deploy tools: unknown command "publish"\n\nUsage: /);
    expect(unknown.err).toContain('  canary ');
    const missing = await run([]);
    expect(missing.status).toBe(1);
    expect(missing.err).toMatch(/^deploy tools: the command is missing/);
  });

  // --from names another build than the package's dist/, which is not checked first.
  it.each([
    ['deploy', '--from', 'x'],
    ['stage', '--from', 'x'],
    ['rollback'],
    ['canary'],
    ['gate'],
    ['release', '--from', 'x'],
  ])('words a refused option of %s as every command does, followed by its help', async (name, ...options) => {
    const { status, err } = await run([name, ...options, '--bogus']);
    expect(status).toBe(1);
    expect(err).toMatch(new RegExp(`^${name}: unknown option --bogus\\n\\nUsage: .*npm run ${name} `));
  });

  it('gives a command its own help', async () => {
    const { status, out } = await run(['stage', '-h']);
    expect(status).toBe(0);
    expect(out).toMatch(/^Usage: npm run stage -w <remote or host> -- <target folder>/);
  });
});
