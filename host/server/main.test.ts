/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REMOTE_NAMES, REMOTES } from 'shared/remotes';

const HOST_DIR = join(__dirname, '..');
const TSX = join(HOST_DIR, '..', 'node_modules', '.bin', 'tsx');

/** The host's server from source, as `npm run serve:source -w host` runs it, to its exit. */
function startHost(env: Record<string, string>) {
  return spawnSync(TSX, ['--require', './server/styles-as-text.cjs', 'server/main.ts'], {
    cwd: HOST_DIR,
    // Only what is given: nothing of the test run's own environment decides what is missing.
    env: { PATH: process.env.PATH ?? '', HOST_PORT: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe("the host's server in production (HOST_ORIGIN set)", () => {
  it('refuses to start without a remote URL, naming every missing variable at once', () => {
    const urls = Object.fromEntries(
      REMOTE_NAMES.map((name) => [REMOTES[name].urlEnv, `https://gifts.example.com/remotes/${name}/mf-manifest.json`]),
    );
    delete urls.REMOTE_CONTENT_URL;
    const run = startHost({ HOST_ORIGIN: 'https://gifts.example.com', ...urls });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^\[host\] cannot start: REMOTE_CONTENT_URL must be set when HOST_ORIGIN is \(a production deployment\): [^\n]*\nAPI_BASE_URL must be set when HOST_ORIGIN is \(a production deployment\): [^\n]*\nPAGE_TICKET_SECRETS must be set when HOST_ORIGIN is \(a production deployment\) and telemetry is on: [^\n]*\n$/,
    );
    expect(run.stdout).not.toContain('listening');
  }, 60_000);

  it('reports a bad variable and a missing one together', () => {
    const run = startHost({ HOST_ORIGIN: 'https://gifts.example.com', RENDER_WORKERS: 'many', TELEMETRY: 'off' });
    expect(run.status).toBe(1);
    const lines = run.stderr.replace('[host] cannot start: ', '').trim().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual([
      'RENDER_WORKERS',
      ...REMOTE_NAMES.map((name) => REMOTES[name].urlEnv),
      'API_BASE_URL',
    ]);
  }, 60_000);

  it('names what an added remote lacks beside the rest', () => {
    const run = startHost({
      HOST_ORIGIN: 'https://gifts.example.com',
      PAGE_TICKET_SECRETS: 't'.repeat(32),
      API_BASE_URL: 'https://gifts.example.com',
      ADDED_REMOTES: 'news',
      REMOTE_NEWS_PATHS: '/news',
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.replace('[host] cannot start: ', '').trim().split('\n');
    expect(lines[0]).toContain("REMOTE_NEWS_URL is not set: the news remote's mf-manifest.json URL");
    expect(lines.slice(1).map((line) => line.split(' ')[0])).toEqual(REMOTE_NAMES.map((name) => REMOTES[name].urlEnv));
  }, 60_000);
});
