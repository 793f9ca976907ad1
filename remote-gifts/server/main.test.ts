/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const TSX = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');

describe("the remote's server, started with a bad environment", () => {
  it('stops before it listens, naming every bad variable at once', () => {
    const run = spawnSync(TSX, [join(__dirname, 'main.ts')], {
      env: { ...process.env, REMOTE_GIFTS_PORT: 'x', STATIC_ROOT: 'relative/dist', TRUST_PROXY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      '[remote-gifts] cannot start: REMOTE_GIFTS_PORT must be a port number between 1 and 65535, got "x"\n' +
        'STATIC_ROOT must be an absolute path, got "relative/dist"',
    );
    expect(run.stdout).not.toContain('listening');
  }, 60_000);
});
