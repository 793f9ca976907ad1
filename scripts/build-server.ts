/**
 * Bundles a workspace's Node server into one CommonJS file that plain `node` runs:
 *
 *   tsx ../scripts/build-server.ts <entry.ts> <out.js>     (from the workspace's folder)
 *
 * Our own packages, `shared` and `server` (TypeScript source, so not runnable by node), are
 * bundled in; every other package, theirs included, stays external and is loaded from
 * node_modules at run time, so the build fails unless the workspace lists it in `dependencies`,
 * which is all `npm ci --omit=dev` installs. The bundle keeps the
 * source's depth (src/ → dist/, server/ → dist-server/), so `__dirname`-relative paths hold in
 * both forms. A linked source map lets `node --enable-source-maps` report TypeScript lines.
 * A part's bundle has its code version (scripts/build-stamp.ts) as `__CODE_VERSION__`.
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { codeVersionOf, PARTS } from './build-stamp';

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Our own packages, TypeScript source: compiled into the bundle. */
const BUNDLED = new Set(['shared', 'server']);

function externalPackages(workspace: string, dependencies: Record<string, string>): Plugin {
  return {
    name: 'external-packages',
    setup(builder) {
      // Bare specifiers only; relative and absolute paths are our own files.
      builder.onResolve({ filter: /^[^./]/ }, ({ path }) => {
        if (isBuiltin(path)) return { external: true };
        const name = packageName(path);
        if (BUNDLED.has(name)) return undefined; // bundled: esbuild resolves it through node_modules
        if (!(name in dependencies)) {
          // Fails the build, naming the importing file, before anything is written.
          return {
            errors: [
              { text: `${name} is not in ${workspace}/package.json "dependencies", so a production install lacks it` },
            ],
          };
        }
        return { external: true };
      });
    },
  };
}

async function main(): Promise<void> {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    console.error('usage: tsx ../scripts/build-server.ts <entry.ts> <out.js>');
    process.exit(2);
  }
  const workspace = process.cwd();
  const manifest = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const part = basename(workspace);
  await build({
    define: part in PARTS ? { __CODE_VERSION__: JSON.stringify(codeVersionOf(dirname(workspace), part)) } : {},
    entryPoints: [join(workspace, entry)],
    outfile: join(workspace, outfile),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'linked',
    // Stack traces need the lines, not the text; the sources stay out of the shipped map.
    sourcesContent: false,
    logLevel: 'warning',
    // A server that renders the app's components (the host's page frame) imports their
    // stylesheets as text: unused, or inlined into the HTML it sends.
    loader: { '.css': 'text' },
    // …so a component's bare `import './x.css'` is rightly dropped; esbuild need not say so.
    logOverride: { 'ignored-bare-import': 'silent' },
    jsx: 'automatic',
    plugins: [externalPackages(manifest.name, manifest.dependencies ?? {})],
  });
  console.log(`[build-server] ${manifest.name}: ${entry} → ${outfile}`);
}

main().catch((error: unknown) => {
  // esbuild has already printed its errors with their locations.
  console.error(`[build-server] ${(error as Error).message.split('\n')[0]}`);
  process.exit(1);
});
