/** @jest-environment node */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpack, { type Stats } from 'webpack';
import { CONTENT_PAGES } from '../src/features/content/content-pages';
import { PrerenderPlugin } from '../../build/prerender-plugin';
import { readOperator } from './operator';
import { PayloadPlugin, payloadInputs } from './payload-plugin';

// webpack loads most of its several hundred modules when the first compiler is made: seconds on
// a busy machine. Made here, as the file loads, that counts against no test's time limit, and
// each test's time is its own build.
webpack({ mode: 'none', entry: {} });

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'prerender-plugin-'));
  writeFileSync(join(dir, 'entry.js'), '');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(contentDir: string): Promise<Stats> {
  const compiler = webpack({
    mode: 'none',
    // The remote's own folder: the pages' packages resolve from there.
    context: join(__dirname, '..'),
    entry: join(dir, 'entry.js'),
    output: { path: join(dir, 'dist') },
    plugins: [
      new webpack.DefinePlugin({ __BUILD_ID__: '"b1"', __BUILD_TIMESTAMP__: String(Date.UTC(2031, 5, 1, 12)) }),
      new PayloadPlugin({ contentDir, pages: CONTENT_PAGES, operator: readOperator({}) }),
      new PrerenderPlugin({ entry: join(__dirname, 'prerender-pages.tsx'), inputs: payloadInputs(CONTENT_PAGES) }),
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => (error || !stats ? reject(error) : resolve(stats)));
    });
  });
}

it("publishes each prerendered page's markup, its data and the pages' styles, dated by the build", async () => {
  const stats = await build(join(__dirname, '..', 'content'));
  expect(stats.compilation.errors).toEqual([]);
  const out = (file: string) => readFileSync(join(dir, 'dist', 'prerender', file), 'utf8');
  const page = (module: string) =>
    JSON.parse(out(`${module}.json`)) as { buildId: string; html: string; state: unknown };
  const payload = JSON.parse(readFileSync(join(dir, 'dist', 'payload', 'home.json'), 'utf8')) as { title: string };
  const home = page('HomePage');
  expect(home.buildId).toBe('b1');
  expect(home.html).toContain(`>${payload.title}</h1>`);
  expect(home.html).toContain('<time dateTime="2031-06-01T12:00:00.000Z">');
  expect(home.state).toMatchObject({ queries: [{ queryKey: ['content', 'payload', 'home'] }] });
  for (const module of ['AboutPage', 'PrivacyPolicyPage', 'TermsPage']) expect(page(module).html).toContain('<h1');
  expect(out('pages.css')).toContain('.p-content');
}, 30_000);

it('publishes nothing when a payload failed, leaving the payload error to say why', async () => {
  const stats = await build(join(dir, 'no-content-here'));
  const messages = stats.compilation.errors.map((error) => error.message);
  expect(messages.every((message) => message.startsWith('PayloadPlugin'))).toBe(true);
  expect(Object.keys(stats.compilation.assets).filter((name) => name.startsWith('prerender/'))).toEqual([]);
}, 30_000);
