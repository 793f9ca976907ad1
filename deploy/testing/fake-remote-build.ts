/** Remote builds and deploy targets in temporary folders, for the deploy and rollback tests. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every file under `dir`, relative, sorted. */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(dir, path));
    }
  };
  walk(dir);
  return files.sort();
}

/**
 * A remote's build in `dir` as webpack writes it: hashed chunks named after the build, the entry
 * files pointing at them, a payload, and the build-info files with the list of emitted files.
 */
export function makeBuild(dir: string, id: string, timestamp: number, payload = `text of ${id}`): string {
  const files: Record<string, string> = {
    [`__federation_expose_AboutPage.${id}.js`]: `about chunk of ${id}`,
    [`190.${id}.js`]: `shared chunk of ${id}`,
    '470.stable.js': 'react, the same in every build',
    'remoteEntry.js': `entry of ${id} -> __federation_expose_AboutPage.${id}.js`,
    'mf-manifest.json': JSON.stringify({ id, chunk: `__federation_expose_AboutPage.${id}.js` }),
    'mf-stats.json': JSON.stringify({ id }),
    'index.html': `<script src="/main.${id}.js"></script>`,
    [`main.${id}.js`]: `standalone shell of ${id}`,
    'payload/about.json': JSON.stringify({ title: 'About', html: payload }),
  };
  for (const [file, text] of Object.entries(files)) write(join(dir, file), text);
  const meta = { id, timestamp, app: 'content', version: '0.1.0', files: Object.keys(files).sort() };
  write(join(dir, 'builds', 'latest.json'), JSON.stringify({ id, timestamp }));
  write(join(dir, 'builds', 'meta', `${id}.json`), JSON.stringify(meta));
  return dir;
}
