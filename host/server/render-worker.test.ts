/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { RENDER_WORKER_SCRIPT, workerCommand } from './render-worker-process';

/**
 * Run in the worker's own realm once its script has set it up: what a bundle would find there,
 * should it get out of its context some other way than the ones the context closes.
 */
const PROBE = `
require(${JSON.stringify(RENDER_WORKER_SCRIPT)});
const found = {};
for (const name of ['net', 'node:http', 'https', 'tls', 'dgram', 'dns', 'child_process', 'worker_threads', 'fs', 'vm']) {
  try { require(name); found[name] = 'loaded'; } catch { found[name] = 'refused'; }
}
found.bindings = [typeof process.binding, typeof process._linkedBinding, typeof process.dlopen, typeof process.getBuiltinModule];
found.signals = typeof process.kill;
found.fetch = typeof fetch;
found.environment = Object.keys(process.env);
found.mayWrite = process.permission.has('fs.write');
found.mayReadHome = process.permission.has('fs.read', '/etc/passwd');
found.mayStartProcesses = process.permission.has('child');
found.mayStartWorkers = process.permission.has('worker');
try { eval('1'); found.eval = 'ran'; } catch { found.eval = 'refused'; }
process.stdout.write(JSON.stringify(found));
process.exit(0);
`;

describe('a render worker process', () => {
  it('has, outside its bundles’ contexts, no network module, no binding, no environment, no writes and no eval', () => {
    const [command, args] = workerCommand({ memoryMb: 64 }, ['-e', PROBE]);
    const run = spawnSync(command, args, { env: {}, encoding: 'utf8' });
    expect(run.status).toBe(0);
    const refused = 'refused';
    expect(JSON.parse(run.stdout)).toEqual({
      net: refused,
      'node:http': refused,
      https: refused,
      tls: refused,
      dgram: refused,
      dns: refused,
      child_process: refused,
      worker_threads: refused,
      fs: refused,
      vm: refused,
      bindings: ['undefined', 'undefined', 'undefined', 'undefined'],
      signals: 'undefined',
      fetch: 'undefined',
      environment: [],
      mayWrite: false,
      mayReadHome: false,
      mayStartProcesses: false,
      mayStartWorkers: false,
      eval: refused,
    });
  });
});
