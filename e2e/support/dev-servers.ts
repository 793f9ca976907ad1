/**
 * `npm run dev` (scripts/run-all.ts: every part under webpack-dev-server, the API under tsx
 * watch) in a folder, usually a copy of the repository (repo-copy.ts), on ports of the worker's block
 * (freePort), for the tests of the development loop. Ready once every part said so in its
 * output; stopped as a whole by testbed/process, every process it started included (the parts
 * run in process groups of their own).
 */
import { createWriteStream } from 'node:fs';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { startProcess, stopProcess } from 'testbed/process';
import { portsEnv } from 'testbed/topology-env';
import { freePort } from './production';

export type DevPart = 'host' | RemoteName | 'api';
export const DEV_PARTS: readonly DevPart[] = ['host', ...REMOTE_NAMES, 'api'];

const STOP_TIMEOUT_MS = 20_000;

/** What a part prints once it serves: webpack-dev-server's first compilation, the API's listening line. */
function readyLine(part: DevPart): RegExp {
  const prefix = `^\\[${part === 'host' || part === 'api' ? part : REMOTES[part].packageDir}\\] `;
  return part === 'api'
    ? new RegExp(`${prefix}.*Server listening at`, 'm')
    : new RegExp(`${prefix}webpack compiled (successfully|with \\d+ warnings?)$`, 'm');
}

export interface DevServers {
  readonly ports: Readonly<Record<DevPart, number>>;
  /** The part's origin at `hostname` (localhost unless given). */
  origin(part: DevPart, hostname?: string): string;
  /** Everything the parts printed so far. */
  output(): string;
  /** Stops every process `npm run dev` started; resolves once they are gone. */
  stop(): Promise<void>;
}

/**
 * Starts `npm run dev` in `root` on free ports, writing its output to `logFile` too; resolves once
 * every part serves, rejects when one fails to compile, the command ends, or `timeoutMs` passes
 * (then stopping what it started).
 */
export async function startDevServers(root: string, logFile: string, timeoutMs: number): Promise<DevServers> {
  const free: number[] = [];
  for (const _part of DEV_PARTS) free.push(await freePort());
  const ports = Object.fromEntries(DEV_PARTS.map((part, index) => [part, free[index]])) as Record<DevPart, number>;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...portsEnv(ports) };
  // run-all.ts allows the remotes' standalone origins in the API's CORS itself, from the ports.
  delete env.CORS_ORIGINS;
  // `npm run dev` leads a process group of its own (each part is a group of its own below it).
  const dev = startProcess({
    name: 'npm run dev',
    command: 'npm',
    args: ['run', 'dev'],
    cwd: root,
    env,
    output: 'pipe',
    stopTimeoutMs: STOP_TIMEOUT_MS,
  });
  const { child } = dev;
  if (dev.pid === -1 || !child.stdout || !child.stderr) throw new Error('npm run dev did not start');
  const { stdout, stderr } = child;
  const log = createWriteStream(logFile);
  let output = '';
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      // Whatever outlives run-all's own stopping goes too, the parts' groups included.
      await stopProcess(dev);
      // A part's last words may still be in the pipe: stop reading before the log is closed, or
      // they would be written after its end.
      stdout.destroy();
      stderr.destroy();
      await new Promise((resolve) => log.end(resolve));
    })());

  const ready = new Promise<void>((resolve, reject) => {
    const waiting = new Set(DEV_PARTS);
    const timer = setTimeout(
      () => reject(new Error(`npm run dev: ${[...waiting].join(', ')} not serving after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      log.write(text);
      const failed = /^\[([\w-]+)\] webpack compiled with \d+ errors?/m.exec(output);
      if (failed) {
        clearTimeout(timer);
        reject(new Error(`npm run dev: ${failed[1]} failed to compile:\n${output.slice(-4000)}`));
        return;
      }
      for (const part of waiting) if (readyLine(part).test(output)) waiting.delete(part);
      if (waiting.size === 0) {
        clearTimeout(timer);
        resolve();
      }
    };
    stdout.on('data', onData);
    stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev ended (${code}) before every part served:\n${output.slice(-4000)}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ports,
    origin: (part, hostname = 'localhost') => `http://${hostname}:${ports[part]}`,
    output: () => output,
    stop,
  };
}
