/**
 * The commands an operator or a test stops with Ctrl-C run as one Node process with tsx's loader
 * (`node --import tsx`). Under tsx's own parent process, a signal is relayed only after the child
 * says, within 30 ms, that it received it; on a busy machine the answer comes late and the parent
 * kills the command with SIGKILL in the middle of its own stop, leaving what it started behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const PACKAGES = ['.', 'host', 'remote-gifts', 'remote-redeem', 'remote-content', 'templates/remote', 'e2e', 'bench'];
/** Scripts that run until they are stopped, or stop what they started when interrupted. */
const SIGNALLED = new Set([
  'start',
  'dev',
  'staging',
  'traffic',
  'deploy',
  'stage',
  'rollback',
  'canary',
  'gate',
  'release',
  'bench',
  'bench:loaders',
]);

function scriptsOf(folder: string): Record<string, string> {
  const json = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return json.scripts ?? {};
}

describe('commands stopped by a signal', () => {
  const signalled = PACKAGES.flatMap((folder) =>
    Object.entries(scriptsOf(folder))
      .filter(([name]) => SIGNALLED.has(name))
      .map(([name, command]) => ({ where: `${folder}: ${name}`, command })),
  );

  it('are found in every package that has them', () => {
    const where = signalled.map((script) => script.where);
    expect(where).toEqual(expect.arrayContaining(['.: start', 'e2e: staging', 'e2e: traffic', 'bench: bench']));
    expect(where).toEqual(expect.arrayContaining(['host: deploy', 'remote-gifts: release', 'templates/remote: gate']));
    expect(signalled.filter(({ command }) => command.includes('node --import tsx')).length).toBeGreaterThanOrEqual(20);
  });

  it('run as one Node process with the tsx loader, never under the tsx command', () => {
    const underTsx = signalled.filter(({ command }) => /(^|&&\s*)tsx\s/.test(command));
    expect(underTsx).toEqual([]);
  });
});
