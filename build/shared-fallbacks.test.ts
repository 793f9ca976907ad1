/** @jest-environment node */
import { SHARED_FALLBACKS_FIELD, type SharedFallbacks } from 'shared/remote-manifest';
import { SharedFallbacksPlugin } from './shared-fallbacks';
import { remoteProject, type RemoteProject, type SharedModules } from './testing/remote-build';

let project: RemoteProject;

beforeEach(() => {
  project = remoteProject('shared-fallbacks-', {
    'src/index.js': 'import("./page");\n',
    'src/page.js':
      'import { format } from "shared/format";\nimport { HttpError } from "shared/http-error";\nimport { ids } from "shared/ids";\n' +
      'import { route } from "react-router-dom";\n' +
      'export default function page() { return [format(1), new HttpError(), ids(), route()].join(); }\n',
    'shared/src/format.js': 'export function format(value) { return `formatted ${value}`; }\n',
    'shared/src/http-error.js': 'export class HttpError extends Error { status = 500; }\n',
    'shared/src/ids.js': 'export function ids() { return "an id"; }\n',
    'shared/src/browser/router/react-router-dom.js': 'export function route() { return "a route"; }\n',
  });
});
afterEach(() => project.remove());

const SHARED: SharedModules = {
  ...Object.fromEntries(
    ['format', 'http-error', 'ids'].map((name) => [
      `shared/${name}`,
      { import: `./shared/src/${name}.js`, singleton: true, requiredVersion: false },
    ]),
  ),
  // As webpack.config.base.ts shares react-router's client API.
  'react-router-dom': {
    import: './shared/src/browser/router/react-router-dom.js',
    singleton: true,
    requiredVersion: false,
  },
};

describe('SharedFallbacksPlugin', () => {
  it("puts the remote's copies of shared's modules in one script, so a page that lacks several fetches one; the router's stays its own", async () => {
    const files = await project.build([new SharedFallbacksPlugin()], { shared: SHARED });
    const manifest = JSON.parse(files['mf-manifest.json']?.toString('utf8') ?? 'null') as Record<string, unknown>;
    const fallbacks = manifest[SHARED_FALLBACKS_FIELD] as SharedFallbacks;
    expect(fallbacks.exposes.Page).toEqual(['react-router-dom', 'shared/format', 'shared/http-error', 'shared/ids']);
    const scripts = new Set(
      ['shared/format', 'shared/http-error', 'shared/ids'].flatMap((key) => fallbacks.shared[key]?.js),
    );
    expect([...scripts]).toEqual([expect.stringMatching(/^shared-copies\.[0-9a-f]+\.js$/)]);
    expect(fallbacks.shared['react-router-dom']?.js).toEqual([expect.not.stringMatching(/^shared-copies/)]);
  });
});
