/**
 * A remote's canary in the browser tests: the remote's own canary command, as its team runs it
 * (`npm run canary -w <remote's package> -- <folder> start|set|promote|abort …`, and its other
 * deploy commands likewise), and a visitor's preview cookie signed with the remote's preview key,
 * as the gate sets it.
 */
import { spawn } from 'node:child_process';
import { signPreview } from 'server/preview-token';
import { REMOTES } from 'shared/remotes';
import { ROOT_DIR, type RemoteName } from './test-env';

/** `npm run canary -w <remote's package> -- <target> <args…>`; gives the command's output, rejects on a failure. */
export function runCanary(remote: RemoteName, target: string, args: readonly string[]): Promise<string> {
  return runRemoteCommand('canary', remote, target, args);
}

/**
 * `npm run <script> -w <remote's package> -- <target> <args…>` (deploy, rollback, canary), as the
 * remote's team runs it; gives the command's output, rejects on a failure.
 */
export function runRemoteCommand(
  script: 'deploy' | 'rollback' | 'canary',
  remote: RemoteName,
  target: string,
  args: readonly string[],
): Promise<string> {
  const npmArgs = ['run', script, '-w', REMOTES[remote].packageDir, '--', target, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', npmArgs, { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm ${npmArgs.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/** The `gb_preview` cookie that pins `remote` to `buildId` on `origin` for ten minutes, signed with `key`. */
export function previewCookie(origin: string, key: string, remote: RemoteName, buildId: string) {
  const expires = Math.floor(Date.now() / 1000) + 600;
  return { name: 'gb_preview', value: signPreview(key, { remote, buildId, expires, audience: origin }), url: origin };
}
