/**
 * Redeploying the content remote during a test: a second build of it with other text (built into
 * a temporary folder from edited copies of its Markdown, never touching remote-content/dist or
 * remote-content/content, which other test files use), the folders a remote's server serves
 * (STATIC_ROOT), and the remote's own deploy and rollback commands.
 */
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exclusively, sharedBuild } from './once-per-run-builds';
import { LOG_DIR, ROOT_DIR, TMP_DIR } from './test-env';

export const CONTENT_PACKAGE = join(ROOT_DIR, 'remote-content');
/** The build every test file serves by default. Read, never changed. */
export const CONTENT_DIST = join(CONTENT_PACKAGE, 'dist');
/** Everything this file creates, removed by `removeRedeployFolders()`. */
export const REDEPLOY_TMP = join(TMP_DIR, 'redeploy');

export interface BuildInfo {
  id: string;
  timestamp: number;
}

export function readLatest(dir: string): BuildInfo {
  return JSON.parse(readFileSync(join(dir, 'builds', 'latest.json'), 'utf8')) as BuildInfo;
}

/** The file name of an exposed module's chunk in a build, e.g. `__federation_expose_AboutPage.1a2b….js`. */
export function exposeChunk(dir: string, module: string): string {
  const prefix = `__federation_expose_${module}.`;
  const matches = readdirSync(dir).filter((file) => file.startsWith(prefix) && file.endsWith('.js'));
  if (matches.length !== 1) throw new Error(`expected one ${prefix}*.js in ${dir}, found ${JSON.stringify(matches)}`);
  return matches[0] as string;
}

/** A fresh folder under `.e2e-tmp/redeploy/`. */
export function tempFolder(name: string): string {
  const dir = join(REDEPLOY_TMP, `${name}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeRedeployFolders(): void {
  rmSync(REDEPLOY_TMP, { recursive: true, force: true });
}

/** A copy of the content pages' Markdown with each page's heading changed by `edit`. */
export function writeEditedContent(dir: string, edit: (markdown: string, page: string) => string): void {
  const source = join(CONTENT_PACKAGE, 'content');
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(source).filter((name) => name.endsWith('.md'))) {
    writeFileSync(join(dir, file), edit(readFileSync(join(source, file), 'utf8'), file.replace(/\.md$/, '')));
  }
}

async function run(label: string, args: string[], env: NodeJS.ProcessEnv, logName: string): Promise<string> {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = join(LOG_DIR, logName);
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n=== e2e ${new Date().toISOString()} ${label}: npm ${args.join(' ')}\n`);
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
      cwd: ROOT_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        log.write(chunk);
      });
    }
    child.once('error', reject);
    child.once('close', resolve);
  });
  await new Promise<void>((resolve) => log.end(resolve));
  if (code !== 0)
    throw new Error(
      `${label} failed (exit ${code}); see ${logFile}:\n${output.trimEnd().split('\n').slice(-30).join('\n')}`,
    );
  return output;
}

/**
 * Builds remote-content's web build as `npm run build:web -w remote-content` does, but from the
 * Markdown in `contentDir` into `distDir` (its webpack config reads CONTENT_DIR and DIST_DIR).
 * Not `build`: that also rewrites the server bundle, which the content server may be starting from.
 */
export async function buildContentRemote(options: {
  contentDir: string;
  distDir: string;
  /** Build variables, such as the operator's (OPERATOR_NAME…). */
  env?: Record<string, string>;
}): Promise<BuildInfo> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    CONTENT_DIR: options.contentDir,
    DIST_DIR: options.distDir,
  };
  delete env.BUILD_ID; // a new build gets a new id
  await run('build of remote-content', ['run', 'build:web', '-w', 'remote-content'], env, 'redeploy-build.log');
  return readLatest(options.distDir);
}

/** The text the second content build adds to every page's heading. */
export const NEXT_MARK = ' (new version)';

/**
 * The run's second build of the content remote: every page's heading ends with NEXT_MARK, so its
 * text, id and chunk names differ from the main build's. Made once per run (once-per-run-builds.ts).
 */
export function nextContentBuild(): Promise<Build> {
  return sharedContentBuild('content-next', (markdown) => markdown.replace(/^# (.+)$/m, `# $1${NEXT_MARK}`));
}

/**
 * A build of the content remote made once per run into `.e2e-tmp/builds/<name>/dist` from its
 * Markdown changed by `edit`, with build variables `env`. Builds of remote-content take turns:
 * they share its webpack cache.
 */
export async function sharedContentBuild(
  name: string,
  edit: (markdown: string, page: string) => string,
  env: Record<string, string> = {},
): Promise<Build> {
  const folder = await sharedBuild(name, (target) =>
    exclusively('remote-content-build', async () => {
      const contentDir = join(target, 'content');
      writeEditedContent(contentDir, edit);
      await buildContentRemote({ contentDir, distDir: join(target, 'dist'), env });
    }),
  );
  return describeBuild(join(folder, 'dist'));
}

/** `npm run deploy -w remote-content -- <target> [--from <build>]`; gives the command's output. */
export function deployContentRemote(target: string, from?: string): Promise<string> {
  const args = ['run', 'deploy', '-w', 'remote-content', '--', target, ...(from ? ['--from', from] : [])];
  return run('deploy of remote-content', args, { ...process.env }, 'redeploy-deploy.log');
}

/** `npm run rollback -w remote-content -- <target> [<build id>]`; gives the command's output. */
export function rollbackContentRemote(target: string, buildId?: string): Promise<string> {
  const args = ['run', 'rollback', '-w', 'remote-content', '--', target, ...(buildId ? [buildId] : [])];
  return run('rollback of remote-content', args, { ...process.env }, 'redeploy-deploy.log');
}

/** What a deploy that does not keep old assets does: the folder holds the new build only. */
export function replaceFolderContents(target: string, build: string): void {
  for (const entry of readdirSync(target)) rmSync(join(target, entry), { recursive: true, force: true });
  cpSync(build, target, { recursive: true });
}

/** A copy of a build, served as the remote's folder. */
export function copyBuild(build: string, target: string): void {
  cpSync(build, target, { recursive: true });
}

/** A build of the content remote as the tests see it: its id, its pages' titles, its exposed pages' chunks. */
export interface Build {
  dir: string;
  info: BuildInfo;
  homeTitle: string;
  aboutTitle: string;
  aboutChunk: string;
  homeChunk: string;
}

export function describeBuild(dir: string): Build {
  const title = (page: string) =>
    (JSON.parse(readFileSync(join(dir, 'payload', `${page}.json`), 'utf8')) as { title: string }).title;
  return {
    dir,
    info: readLatest(dir),
    homeTitle: title('home'),
    aboutTitle: title('about'),
    aboutChunk: exposeChunk(dir, 'AboutPage'),
    homeChunk: exposeChunk(dir, 'HomePage'),
  };
}
