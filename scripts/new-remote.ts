/**
 * `npm run new-remote -- <name>`: creates `remote-<name>/` from `templates/remote/` (one exposed
 * page, `<Name>Page`), records the new workspace with `npm install` (`--no-install` skips that),
 * and prints the entry to add to the registry of remotes, `shared/src/remotes.ts`, which is the
 * other step there is (docs/adding-a-remote.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS } from 'shared/ports';
import { remoteSpec } from 'shared/remotes';

const ROOT = join(__dirname, '..');
const TEMPLATE = join(ROOT, 'templates', 'remote');

export interface NewRemote {
  /** The federation name and registry key: `news`. */
  name: string;
  /** `News`, for titles and component names. */
  title: string;
  /** The exposed page's component: `NewsPage`. */
  page: string;
  /** Its file name in `src/exposed/`, without extension: `news-page`. */
  pageFile: string;
  /** The route that shows it: `/news`. */
  path: string;
  port: number;
}

export function describeRemote(name: string): NewRemote {
  if (!/^[a-z][a-z0-9]*$/.test(name))
    throw new Error(`a remote's name is lower-case letters and digits, such as "news"; got "${name}"`);
  const title = name[0]?.toUpperCase() + name.slice(1);
  const port = Math.max(...Object.values(DEFAULT_PORTS).map((part) => part.port)) + 1;
  return { name, title, page: `${title}Page`, pageFile: `${name}-page`, path: `/${name}`, port };
}

/** The template's placeholders, in file names and contents. */
function substitute(text: string, remote: NewRemote): string {
  return text
    .replaceAll('__name__', remote.name)
    .replaceAll('__Name__', remote.title)
    .replaceAll('__Page__', remote.page)
    .replaceAll('__page__', remote.pageFile)
    .replaceAll('__path__', remote.path)
    .replaceAll('__NAME__', remote.name.toUpperCase())
    .replaceAll('__port__', String(remote.port));
}

function copyTemplate(from: string, to: string, remote: NewRemote): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const target = join(to, substitute(entry.name, remote));
    if (entry.isDirectory()) copyTemplate(join(from, entry.name), target, remote);
    else writeFileSync(target, substitute(readFileSync(join(from, entry.name), 'utf8'), remote));
  }
}

/** The registry entry for the new remote, as it goes into `REMOTES`. */
export function registryEntry(remote: NewRemote): string {
  const variable = (what: string) => `REMOTE_${remote.name.toUpperCase()}_${what}`;
  return [
    `  ${remote.name}: {`,
    `    packageDir: 'remote-${remote.name}',`,
    `    port: ${remote.port},`,
    `    portEnv: '${variable('PORT')}',`,
    `    urlEnv: '${variable('URL')}',`,
    `    exposes: {`,
    `      ${remote.page}: {`,
    `        file: './src/exposed/${remote.pageFile}.tsx',`,
    `        routes: [{ path: '${remote.path}', layout: 'default', title: '${remote.title}' }],`,
    `      },`,
    `    },`,
    `  },`,
  ].join('\n');
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'no-install': { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) {
    console.error('usage: npm run new-remote -- <name> [--no-install]');
    process.exit(2);
  }
  const remote = describeRemote(positionals[0] as string);
  const dir = join(ROOT, `remote-${remote.name}`);
  if (remoteSpec(remote.name) || existsSync(dir)) throw new Error(`remote-${remote.name} exists already`);
  copyTemplate(TEMPLATE, dir, remote);
  console.log(`[new-remote] created ${relative(ROOT, dir)}/ from templates/remote/`);
  if (!values['no-install']) {
    // Records the workspace in package-lock.json (npm ci refuses a lock without it) and links it.
    const result = spawnSync('npm install --no-audit --no-fund', { cwd: ROOT, stdio: 'inherit', shell: true });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  console.log(
    `[new-remote] now add its entry at the end of REMOTES in shared/src/remotes.ts:\n\n${registryEntry(remote)}\n`,
  );
}

if (require.main === module) main();
