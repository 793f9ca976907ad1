/**
 * Bundles a workspace's Node server into one CommonJS file for plain `node`
 * (`tsx ../scripts/build-server.ts <entry.ts> <out.js>`). `shared` and `server` are TypeScript,
 * so bundled in; other packages stay external, so the build fails unless the workspace lists them
 * in `dependencies`. The bundle keeps the source's depth, so `__dirname` paths hold.
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { codeVersionOf, PARTS } from './build-stamp';

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const BUNDLED = new Set(['shared', 'server']);

function externalPackages(workspace: string, dependencies: Record<string, string>): Plugin {
  return {
    name: 'external-packages',
    setup(builder) {
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
    sourcesContent: false,
    logLevel: 'warning',
    // Server-rendered components' stylesheets are unused, or inlined as text into the HTML.
    loader: { '.css': 'text' },
    logOverride: { 'ignored-bare-import': 'silent' },
    jsx: 'automatic',
    plugins: [externalPackages(manifest.name, manifest.dependencies ?? {})],
  });
  console.log(`[build-server] ${manifest.name}: ${entry} → ${outfile}`);
}

main().catch((error: unknown) => {
  console.error(`[build-server] ${(error as Error).message.split('\n')[0]}`);
  process.exit(1);
});
