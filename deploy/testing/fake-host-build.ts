/** Host builds in temporary folders, as the host's webpack build writes them, for the host's deploy tests. */
import { join } from 'node:path';
import { write } from './fake-remote-build';

/**
 * The host's build in `dir`: content-hashed scripts named after the build, the files that name
 * them (`index.html`, the pages' template; the manifests), and its build files under
 * `_app/builds/` with its code version.
 */
export function makeHostBuild(dir: string, id: string, timestamp: number, codeVersion = 'code-1'): string {
  const files: Record<string, string> = {
    [`main.${id}.js`]: `main of ${id}`,
    [`264.${id}.js`]: `chunk of ${id}`,
    'crisp.stable.js': 'the same in every build',
    'index.html': `<!doctype html><title>${id}</title><script defer src="/main.${id}.js"></script>`,
    'mf-manifest.json': JSON.stringify({ id, shared: [] }),
    'mf-stats.json': JSON.stringify({ id }),
  };
  for (const [file, text] of Object.entries(files)) write(join(dir, file), text);
  const meta = `_app/builds/meta/${id}.json`;
  write(join(dir, '_app/builds/latest.json'), JSON.stringify({ id, timestamp, codeVersion }));
  write(
    join(dir, meta),
    JSON.stringify({ id, timestamp, app: 'host', version: '0.1.0', codeVersion, files: [...Object.keys(files), meta] }),
  );
  return dir;
}
