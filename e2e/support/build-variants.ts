/**
 * Variants of a remote's build for the gate, the release run and the deployment tests: a copy of
 * a real build (its dist, read, never changed) under a new build id, with one fault of a kind a
 * team could ship. No webpack run: the copy's text files name the new id, and every chunk changed
 * gets its new sha384 digest wherever the build names it (its remote entry's `sriHashes`, its
 * manifest's `integrity`), so the fault is the build's own and never an integrity refusal. Its
 * precompressed copies (`.br`, `.gz`) are made again from the changed files.
 *
 * - `good`: the same pages, another id.
 * - `throws`: every exposed page's chunk throws as it is run: the page cannot load its part.
 * - `throws-for-visitors`: the same, but not in a browser holding a preview cookie (the gate's):
 *   a fault only real traffic meets, which a gate cannot see and the release run must catch.
 * - `throws-rendering`: every exposed page loads, and throws as it renders.
 * - `csp`: every exposed page requests an image from an origin the host's policy does not allow.
 * - `exposes`: the manifest no longer exposes one of the registry's modules.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chunkArrayName } from 'shared/remotes';
import { listFiles } from '../../deploy/testing/fake-remote-build';
import { readLatest } from './redeploy';
import { ROOT_DIR } from './test-env';

export type BuildFault = 'good' | 'throws' | 'throws-for-visitors' | 'throws-rendering' | 'csp' | 'exposes';

/** The module the `exposes` variant leaves out of its manifest. */
export const DROPPED_EXPOSE = 'TermsPage';
/** What the `throws` variants' pages throw. */
export const THROWN_MESSAGE = 'this build of the remote is broken';
/** The image the `csp` variant requests, at an origin no policy of the host allows. */
export const REFUSED_IMAGE = 'https://refused-by-policy.invalid/pixel.png';

const TEXT_FILE = /\.(js|json|html|css|txt|map)$/;
const COMPRESSED = ['.br', '.gz'] as const;

/** The Subresource Integrity of a script's bytes, as a build records it. */
export const digestOf = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/**
 * Code run before the chunk pushes its modules onto `chunks` (the remote's array, named from its
 * container's name): each module whose default export is a function (a page component) gets one
 * that throws as it renders in its stead, once the module has run.
 */
function rendersThrowing(remote: string): string {
  const thrower = `function () { throw new Error(${JSON.stringify(THROWN_MESSAGE)}); }`;
  const array = `self[${JSON.stringify(chunkArrayName(remote))}]`;
  return (
    `(function () { var chunks = (${array} = ${array} || []), push = chunks.push;\n` +
    `chunks.push = function (data) { chunks.push = push; var modules = data[1];\n` +
    `Object.keys(modules).forEach(function (id) { var run = modules[id];\n` +
    `modules[id] = function (module, exports, require) { run(module, exports, require);\n` +
    `if (module.exports && typeof module.exports.default === 'function') module.exports = { __esModule: true, default: ${thrower} }; }; });\n` +
    `return push.call(chunks, data); }; })();\n`
  );
}

/** What each fault puts before an exposed page's chunk of `remote`. */
function prelude(fault: BuildFault, remote: string): string | undefined {
  switch (fault) {
    case 'throws':
      return `throw new Error(${JSON.stringify(THROWN_MESSAGE)});\n`;
    case 'throws-for-visitors':
      return `if (!document.cookie.includes("gb_preview=")) throw new Error(${JSON.stringify(THROWN_MESSAGE)});\n`;
    case 'throws-rendering':
      return rendersThrowing(remote);
    case 'csp':
      return `new Image().src = ${JSON.stringify(REFUSED_IMAGE)};\n`;
    default:
      return undefined;
  }
}

/**
 * Writes the variant of the build in `source` into `dir` (replaced if there) as build `id`; gives
 * `dir`. The build's timestamp is now, so it is the newest the deployment knows.
 */
export function variantBuild(source: string, dir: string, id: string, fault: BuildFault): string {
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  const oldId = readLatest(source).id;
  const timestamp = Date.now();
  const texts = new Map<string, string>();
  const original = new Map<string, string>();
  for (const file of listFiles(dir).filter((name) => TEXT_FILE.test(name))) {
    const text = readFileSync(join(dir, file), 'utf8');
    original.set(file, text);
    texts.set(file, text.split(oldId).join(id));
  }
  const manifest = JSON.parse(texts.get('mf-manifest.json') ?? '{}') as { name?: string; exposes?: { name: string }[] };
  if (typeof manifest.name !== 'string') throw new Error(`${source}/mf-manifest.json names no remote`);
  const code = prelude(fault, manifest.name);
  for (const [file, text] of texts) {
    if (code && /^__federation_expose_[^/]+\.js$/.test(file)) texts.set(file, `${code}${text}`);
  }
  if (fault === 'exposes') manifest.exposes = manifest.exposes?.filter((entry) => entry.name !== DROPPED_EXPOSE);
  texts.set('mf-manifest.json', JSON.stringify(manifest));
  const latest = 'builds/latest.json';
  texts.set(latest, JSON.stringify({ id, timestamp }));
  const metaFile = `builds/meta/${oldId}.json`;
  const meta = JSON.parse(texts.get(metaFile) ?? '{}') as Record<string, unknown>;
  texts.set(metaFile, JSON.stringify({ ...meta, id, timestamp }));

  // Each changed file's digest, wherever another file names it, until none changes (a chunk's
  // digest is in remoteEntry.js, whose own digest is in the manifest).
  const named = new Map([...original].map(([file, text]) => [file, digestOf(text)]));
  for (let changed = true; changed;) {
    changed = false;
    for (const [file, text] of texts) {
      const before = named.get(file) ?? '';
      const now = digestOf(text);
      if (now === before) continue;
      named.set(file, now);
      for (const [other, otherText] of texts) {
        if (other !== file && otherText.includes(before)) {
          texts.set(other, otherText.split(before).join(now));
          changed = true;
        }
      }
    }
  }
  for (const [file, text] of texts) {
    if (text === original.get(file)) continue;
    writeFileSync(join(dir, file), text);
    for (const suffix of COMPRESSED) {
      const packed = join(dir, `${file}${suffix}`);
      if (!existsSync(packed) || !statSync(packed).isFile()) continue;
      writeFileSync(packed, suffix === '.br' ? brotliCompressSync(text) : gzipSync(text, { level: 9 }));
    }
  }
  renameSync(join(dir, metaFile), join(dir, `builds/meta/${id}.json`));
  return dir;
}

export interface CommandResult {
  code: number | null;
  /** stdout and stderr together, in order. */
  output: string;
}

/**
 * `npm <args>` from the repository's root, as a team types it (`npm run gate -w remote-content
 * -- …`), with `env` added; its output goes to `logFile` too. Resolves with its exit code and
 * output, whatever the code: a refusal is what some tests expect.
 */
export function npmCommand(
  args: readonly string[],
  env: Record<string, string>,
  logFile: string,
  onLine?: (line: string) => void,
): Promise<CommandResult> {
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n=== e2e ${new Date().toISOString()} npm ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', [...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let partial = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        output += text;
        log.write(text);
        if (!onLine) return;
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) onLine(line);
      });
    }
    child.once('error', reject);
    child.once('close', (code) => log.end(() => resolve({ code, output })));
  });
}
