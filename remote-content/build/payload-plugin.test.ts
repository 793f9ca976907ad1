/** @jest-environment node */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpack, { type Stats } from 'webpack';
import { readOperator } from './operator';
import { PayloadPlugin } from './payload-plugin';

// webpack loads most of its several hundred modules when the first compiler is made: a second or
// so of this file's time, and many on a busy machine. Made here, as the file loads, it counts
// against no test's time limit, and each test's time is its own build.
webpack({ mode: 'none', entry: {} });

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payload-plugin-'));
  mkdirSync(join(dir, 'content'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(pages: string[]): Promise<Stats> {
  const compiler = webpack({
    mode: 'none',
    context: dir,
    // No script: the payloads are all the build makes.
    entry: {},
    output: { path: join(dir, 'dist') },
    plugins: [
      new PayloadPlugin({
        contentDir: join(dir, 'content'),
        pages,
        operator: readOperator({ OPERATOR_NAME: 'Acme Gifts' }),
      }),
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => (error || !stats ? reject(error) : resolve(stats)));
    });
  });
}

it('emits one payload per page and watches the Markdown files', async () => {
  writeFileSync(join(dir, 'content', 'about.md'), '# About\n\nHello <script>x()</script>');
  const stats = await build(['about']);
  expect(stats.hasErrors()).toBe(false);
  const payload: unknown = JSON.parse(readFileSync(join(dir, 'dist', 'payload', 'about.json'), 'utf8'));
  expect(payload).toEqual({ title: 'About', html: '<p>Hello </p>' });
  expect(stats.compilation.fileDependencies.has(join(dir, 'content', 'about.md'))).toBe(true);
});

it('fails the build with the file name when a page is missing or has no title', async () => {
  writeFileSync(join(dir, 'content', 'terms.md'), 'No title');
  const stats = await build(['about', 'terms']);
  const messages = stats.compilation.errors.map((error) => error.message).join('\n');
  expect(messages).toMatch(/PayloadPlugin: content\/about\.md: .*ENOENT/);
  expect(messages).toContain('PayloadPlugin: content/terms.md: expected exactly one "# Title" heading');
});

it("fills in the operator's details", async () => {
  writeFileSync(join(dir, 'content', 'about.md'), '# About\n\nRun by {{operatorName}}.');
  const stats = await build(['about']);
  expect(stats.hasErrors()).toBe(false);
  const payload: unknown = JSON.parse(readFileSync(join(dir, 'dist', 'payload', 'about.json'), 'utf8'));
  expect(payload).toEqual({ title: 'About', html: '<p>Run by Acme Gifts.</p>' });
});

it('fails the build, naming the file and the text, when a placeholder would reach the page', async () => {
  writeFileSync(join(dir, 'content', 'about.md'), '# About\n\n> **Sample text.** Run by [Operator name].');
  writeFileSync(join(dir, 'content', 'terms.md'), '# Terms\n\nWrite to {{postalCode}}.');
  const stats = await build(['about', 'terms']);
  const messages = stats.compilation.errors.map((error) => error.message).join('\n');
  expect(messages).toContain('PayloadPlugin: content/about.md: placeholder text would reach the page');
  expect(messages).toContain('"[Operator name]"');
  expect(messages).toContain('"Sample text"');
  expect(messages).toContain('PayloadPlugin: content/terms.md: unknown setting {{postalCode}}');
});
