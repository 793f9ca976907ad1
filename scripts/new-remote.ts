/**
 * `npm run new-remote -- <name>`: creates `remote-<name>/` from `templates/remote/`, a remote that
 * carries its own spec (`remote-spec.ts`: one exposed page, `<Name>Page`, prerendered, at
 * `/<name>`), so it builds and deploys on its own and a running host and API compose it once they
 * are given its URL and the paths it may claim; records the new workspace with `npm install`
 * (`--no-install` skips that) and prints those next steps (docs/adding-a-remote.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { remoteVariable } from 'shared/composition';
import { DEFAULT_PORTS } from 'shared/ports';
import { isRemoteName } from 'shared/published-routes';
import { remoteSpec } from 'shared/remotes';
import { ownSpecOf } from '../build/package-spec';

const ROOT = join(__dirname, '..');
const TEMPLATE = join(ROOT, 'templates', 'remote');

export interface NewRemote {
  /** The federation name: `news`. */
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

/** The ports taken: the repository's parts' and those of the remotes already scaffolded beside them. */
function takenPorts(root: string): number[] {
  const scaffolded = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('remote-'))
    .flatMap((entry) => {
      const own = ownSpecOf(join(root, entry.name));
      return own ? [own.spec.port] : [];
    });
  return [...Object.values(DEFAULT_PORTS).map((part) => part.port), ...scaffolded];
}

export function describeRemote(name: string, root = ROOT): NewRemote {
  if (!isRemoteName(name)) {
    throw new Error(
      `a remote's name is a lower-case letter, then up to 39 lower-case letters and digits, such as "news", and not host or other; got "${name}"`,
    );
  }
  const title = name[0]?.toUpperCase() + name.slice(1);
  const port = Math.max(...takenPorts(root)) + 1;
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

/** Creates `remote-<name>/` in `root` from the template; refuses a name the registry or a folder holds. */
export function scaffoldRemote(name: string, root = ROOT): NewRemote & { dir: string } {
  const remote = describeRemote(name, root);
  const dir = join(root, `remote-${remote.name}`);
  if (remoteSpec(remote.name)) throw new Error(`${remote.name} is a remote of the registry already`);
  if (existsSync(dir)) throw new Error(`remote-${remote.name} exists already`);
  copyTemplate(TEMPLATE, dir, remote);
  return { ...remote, dir };
}

/** What an integrator does next, each step a command or a setting (docs/adding-a-remote.md). */
export function nextSteps(remote: NewRemote): string {
  const workspace = `remote-${remote.name}`;
  const folder = `/srv/gift-box/remotes/${remote.name}`;
  return [
    `${workspace}/remote-spec.ts is its spec: its pages and routes (${remote.path}) and its port (${remote.port}). Next:`,
    `  1. build it alone:   npm run build -w ${workspace}`,
    `  2. deploy it alone:  npm run deploy -w ${workspace} -- ${folder}`,
    `     (beside the other remotes' folders: nginx serves it at /remotes/${remote.name}/)`,
    `  3. on every host server and API process, in the environment they share:`,
    `       ADDED_REMOTES=${remote.name}   (a comma list: the names already there, then this one)`,
    `       ${remoteVariable(remote.name, 'URL')}=https://<the site>/remotes/${remote.name}/mf-manifest.json`,
    `       ${remoteVariable(remote.name, 'PATHS')}=${remote.path}   (the paths it may claim, a comma list)`,
    `  4. restart them one at a time (docs/operations.md, "Rolling restarts"): nothing else is rebuilt.`,
    `  5. check: ${remote.path} on the site shows its page (docs/adding-a-remote.md says what else to look at).`,
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
  const remote = scaffoldRemote(positionals[0] as string);
  console.log(`[new-remote] created ${relative(ROOT, remote.dir)}/ from templates/remote/`);
  if (!values['no-install']) {
    // Records the workspace in package-lock.json (npm ci refuses a lock without it) and links it.
    const result = spawnSync('npm install --no-audit --no-fund', { cwd: ROOT, stdio: 'inherit', shell: true });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  console.log(`[new-remote] ${nextSteps(remote)}`);
}

if (require.main === module) main();
