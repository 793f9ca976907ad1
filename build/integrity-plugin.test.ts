/** @jest-environment node */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import webpack, { type Configuration, type WebpackPluginInstance } from 'webpack';
import type { BuildMeta } from 'shared/build-info';
import { BuildInfoPlugin } from './build-info-plugin';
import { REFUSED_INTEGRITY, RemoteIntegrityPlugin, sha384Integrity } from './integrity-plugin';
import { remoteProject, type RemoteProject } from './testing/remote-build';

const SOURCES = {
  'src/index.js': 'import("./page");\n',
  // An exposed page that loads a chunk of its own later, as the remotes' pages do.
  'src/page.js': 'export default function page() { return import("./later").then((m) => m.later); }\n',
  'src/later.js': 'export const later = "a chunk the page loads when it needs it";\n',
};

let project: RemoteProject;

beforeEach(() => {
  project = remoteProject('integrity-plugin-', SOURCES);
});
afterEach(() => project.remove());

/** A remote's production build, as webpack.config.base.ts makes one; resolves with every file it wrote. */
const build = async (plugins: WebpackPluginInstance[], output: Configuration['output'] = {}) =>
  project.build(plugins, { output });

const BUILD_INFO = { id: 'b1', timestamp: 1, app: 'gifts', version: '1.0.0', dir: 'builds' };

/**
 * The build the tests that only read its files share, made once: a remote's build as the remotes
 * make theirs (the integrity and build-info plugins, `uniqueName` its name), every file it wrote.
 */
let built: Record<string, Buffer>;
beforeAll(async () => {
  const shared = remoteProject('integrity-plugin-shared-', SOURCES);
  try {
    built = await shared.build([new RemoteIntegrityPlugin(), new BuildInfoPlugin(BUILD_INFO)], {
      output: { uniqueName: 'gifts' },
    });
  } finally {
    shared.remove();
  }
});

const digest = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const scripts = (files: Record<string, Buffer>) => Object.keys(files).filter((file) => file.endsWith('.js'));

describe('RemoteIntegrityPlugin', () => {
  it("records in the manifest the sha384 of every script's emitted bytes, remoteEntry.js among them", () => {
    const files = built;
    const manifest = JSON.parse(String(files['mf-manifest.json'])) as { integrity: Record<string, string> };
    expect(Object.keys(manifest.integrity).sort()).toEqual(scripts(files).sort());
    expect(manifest.integrity['remoteEntry.js']).toBeDefined();
    for (const [file, integrity] of Object.entries(manifest.integrity)) {
      expect(integrity).toBe(digest(files[file] as Buffer));
    }
  });

  it("gives the entry's own chunk loading the digest of every chunk it loads, so the entry's integrity covers them", () => {
    const files = built;
    const entry = String(files['remoteEntry.js']);
    expect(entry).not.toMatch(/__remote_integrity_/);
    // Every chunk but the runtime chunks, as finally named and minified.
    const chunks = scripts(files).filter((file) => file !== 'remoteEntry.js' && !file.startsWith('main.'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const chunk of chunks) expect(entry).toContain(digest(files[chunk] as Buffer));
    // …and sets it, with CORS, on the scripts it adds.
    expect(entry).toMatch(/\.integrity\s*=/);
    expect(entry).toContain('crossOrigin="anonymous"');
  });

  it('refuses a chunk whose digest the runtime lacks, saying so in the console, instead of loading it unchecked', () => {
    const files = built;
    const manifest = JSON.parse(String(files['mf-manifest.json'])) as { integrity: Record<string, string> };
    const runtime = Object.keys(files).find((file) => /^main\..*\.js$/.test(file)) as string;
    // The chunk the standalone page's runtime loads at once (the exposed page), as a build that
    // left its digest out.
    const page = Object.keys(files).find((file) => file.startsWith('__federation_expose_Page.')) as string;
    const digest = manifest.integrity[page] as string;
    const code = String(files[runtime]);
    expect(code.includes(digest)).toBe(true);
    const withoutDigest = code.replace(digest, '');

    const errors: string[] = [];
    const virtualConsole = new VirtualConsole();
    virtualConsole.on('error', (message: unknown) => errors.push(String(message)));
    // The page's own script tag gives the runtime its public path (webpack's `auto`).
    const { window } = new JSDOM('<!doctype html><head><script src="https://gifts.example/main.js"></script></head>', {
      url: 'https://gifts.example/',
      runScripts: 'outside-only',
      virtualConsole,
    });
    try {
      // The script is added, never fetched here (jsdom loads no resources): what the browser is
      // told to check is the point.
      window.eval(withoutDigest);
      const added = [...window.document.querySelectorAll('script')].find((script) => script.src.endsWith(page));
      expect(added?.integrity).toBe(REFUSED_INTEGRITY);
      expect(added?.crossOrigin).toBe('anonymous');
      expect(errors).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\\[integrity\\] gifts: chunk \\S+ has no digest in this build, so it is refused: https://gifts\\.example/${page}$`,
          ),
        ),
      ]);
    } finally {
      window.close();
    }
  });

  it('refuses with a digest a browser enforces: well formed, and matching no script', () => {
    expect(REFUSED_INTEGRITY).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    expect(Buffer.from(REFUSED_INTEGRITY.slice('sha384-'.length), 'base64')).toEqual(Buffer.alloc(48));
  });

  it('keeps the digests with the build in builds/meta/{id}.json', () => {
    const files = built;
    const meta = JSON.parse(String(files[join('builds', 'meta', 'b1.json')])) as BuildMeta;
    expect(meta.integrity?.['remoteEntry.js']).toBe(digest(files['remoteEntry.js'] as Buffer));
    expect(Object.keys(meta.integrity ?? {}).sort()).toEqual(scripts(files).sort());
  });

  it('fails the build when a later step changes a script after its digest was taken', async () => {
    const changesEntryLate: WebpackPluginInstance = {
      apply(compiler) {
        compiler.hooks.thisCompilation.tap('late', (compilation) => {
          compilation.hooks.processAssets.tap(
            { name: 'late', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
            () => {
              compilation.updateAsset(
                'remoteEntry.js',
                (source) => new webpack.sources.ConcatSource(source, '\n/* changed */'),
              );
            },
          );
        });
      },
    };
    await expect(build([new RemoteIntegrityPlugin(), changesEntryLate])).rejects.toThrow(
      'remoteEntry.js changed after its integrity was recorded',
    );
  });

  it('needs scripts fetched with CORS (crossOriginLoading "anonymous")', async () => {
    await expect(build([new RemoteIntegrityPlugin()], { crossOriginLoading: false })).rejects.toThrow(
      "needs output.crossOriginLoading 'anonymous'",
    );
  });

  it('sha384Integrity is what a browser compares an integrity attribute with', () => {
    expect(sha384Integrity('')).toBe('sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb');
  });
});
