// One flat config for every workspace, with the import boundaries that keep the parts
// independently deployable (README: "For remote teams: develop and deploy a remote alone").
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');
const ts = require('typescript');
const { readFileSync, realpathSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { builtinModules } = require('node:module');

// The remotes' folders, from the registry of remotes: TypeScript, loaded through tsx's API, whose
// hooks are removed again at once (left in place, they trouble other loaders in the process).
const tsx = require('tsx/cjs/api').register({ namespace: 'eslint-config' });
const REMOTES = Object.values(tsx.require('./shared/src/remotes.ts', __filename).REMOTES).map(
  (remote) => remote.packageDir,
);
// The router the browser parts share: react-router's client API (its list, below).
const ROUTER_CLIENT_API = Object.keys(tsx.require('./shared/src/browser/router/react-router-dom.ts', __filename));
// The TanStack Query the browser parts share: the exports their pages call (its list, below).
const QUERY_CLIENT_API = Object.keys(tsx.require('./shared/src/browser/query/tanstack-react-query.ts', __filename));
tsx.unregister();
const APPS = ['host', ...REMOTES, 'api'];
// Tooling around the apps: tests, benchmarks, scripts.
const TOOLS = ['testbed', 'e2e', 'bench', 'scripts'];

const zones = [
  // A remote imports only itself and shared.
  ...REMOTES.map((remote) => ({
    target: `./${remote}`,
    from: APPS.filter((app) => app !== remote).map((app) => `./${app}`),
    message: 'A remote imports only its own code and `shared`.',
  })),
  // The host reaches remotes through the federation runtime, never their source.
  {
    target: './host',
    from: [...REMOTES, 'api'].map((app) => `./${app}`),
    message: 'The host loads remotes at run time; import `shared` contracts instead.',
  },
  {
    target: './shared',
    from: [...APPS, ...TOOLS, 'server', 'build', 'deploy'].map((dir) => `./${dir}`),
    message: '`shared` is the contract and the browser runtime: it imports no app, server or tool.',
  },
  {
    target: './server',
    from: [...APPS, ...TOOLS, 'build', 'deploy'].map((dir) => `./${dir}`),
    message: '`server` is what every server shares: it imports `shared` only.',
  },
  // The testbed (processes, ports, PostgreSQL, Chromium, nginx) serves tests, the bench and
  // scripts; it imports none of them, nor any app, and no production code imports it.
  {
    target: './testbed',
    from: [...APPS, 'server', 'e2e', 'bench', 'scripts', 'build', 'deploy'].map((dir) => `./${dir}`),
    message: 'The testbed is tooling: it imports no app and no test (only `shared`, for the registry).',
  },
  {
    // deploy's tests, and their helpers in deploy/testing/, run its configuration on the
    // testbed's Prometheus, nginx and PostgreSQL.
    target: [
      'host/src',
      'host/server',
      ...REMOTES,
      'api/src',
      'build',
      'deploy/!(*.test).ts',
      'deploy/!(testing)/**/!(*.test).ts',
    ].map((dir) => `./${dir}`),
    from: './testbed',
    message: 'Production code never imports the testbed: it is for tests, the bench and scripts.',
  },
  {
    target: './api',
    from: ['host', ...REMOTES, 'e2e'].map((app) => `./${app}`),
    message: 'The API imports only `shared` contracts and `server`.',
  },
  {
    target: './e2e',
    from: APPS.map((app) => `./${app}`),
    message: 'Browser tests exercise the built, served apps; they import no source.',
  },
  // …but they read the registry of remotes, data on what is deployed where (names, ports, variables, routes).
  {
    target: './e2e',
    from: './shared',
    except: ['./src/remotes.ts'],
    message: 'Browser tests import no source; `shared/remotes`, the registry of remotes, is the one exception.',
  },
  // The route table is data every side reads (the router, layouts, the host's Node server), so it reads none of them.
  {
    target: './host/src/route-table',
    from: './host/src',
    except: ['./route-table'],
    message: 'The route table is data: it imports only itself and `shared`.',
  },
  {
    target: './host/server',
    from: './host/src',
    // The route table for statuses and preloads; the layouts (with the services they read and
    // the host's stylesheet) to render a prerendered page's frame.
    except: ['./route-table', './layouts', './app-services.tsx', './third-party', './styles'],
    message: "The host's server reads the route table and renders the layouts' frame, no other browser code.",
  },
  // The bench measures the built, served apps (Node code); only its monolith build config
  // (bench/monolith/) reads their source, and nothing imports the bench.
  {
    target: ['./bench/src', './bench/api'],
    from: [...APPS, 'e2e'].map((app) => `./${app}`),
    message: 'The bench measures the built apps; only bench/monolith/ (the monolith build) imports their source.',
  },
  {
    target: ['./bench/src', './bench/api'],
    from: './shared',
    except: ['./src/remotes.ts'],
    message: 'The bench imports no source; `shared/remotes`, the registry of remotes, is the one exception.',
  },
  { target: './bench/monolith', from: ['./api', './e2e'], message: 'The monolith is the browser apps only.' },
  {
    target: [...APPS, 'shared', 'server', 'testbed', 'e2e', 'scripts', 'templates'].map((dir) => `./${dir}`),
    from: './bench',
    message: 'Nothing imports the bench.',
  },
];

// Third-party libraries the host alone loads; remotes reach them through `shared` facades.
const HOST_ONLY_LIBRARIES = [
  {
    name: 'mixpanel-browser',
    message: 'Track through `shared/browser/analytics`; the host owns Mixpanel and consent.',
  },
  { name: 'crisp-sdk-web', message: 'Use `shared/browser/chat`; the host loads the chat widget.' },
];
const SHARED_ONLY_LIBRARIES = [
  {
    name: '@iconify/react',
    message: 'Use `shared/browser/icons/icon`: bundled icons and the configured icon service.',
  },
  {
    name: '@iconify/react/offline',
    message: 'Use `shared/browser/icons/icon`: bundled icons and the configured icon service.',
  },
];
// Remotes use @tanstack/react-query's hooks, but never a client of their own: one cache per page.
const ONE_QUERY_CLIENT = [
  {
    name: '@tanstack/react-query',
    importNames: ['QueryClient', 'QueryClientProvider'],
    message: 'Wrap exposed pages in `shared/browser/api/query-provider`: one QueryClient per page.',
  },
];

// The parts share react-router-dom as react-router's client API
// (`shared/src/browser/router/react-router-dom.ts`): what it leaves out is not in the browser's
// copy, and `react-router` itself would be a second, unshared router.
const ONE_ROUTER = [
  ...['react-router', 'react-router/dom'].map((name) => ({
    name,
    message: `Import \`react-router-dom\`, the router the parts share; \`${name}\` would be a copy of one's own.`,
  })),
  {
    name: 'react-router-dom',
    importNames: Object.keys(require('react-router-dom')).filter((name) => !ROUTER_CLIENT_API.includes(name)),
    message:
      'Not in the router the parts share (shared/src/browser/router/react-router-dom.ts): add it to that list if a page needs it.',
  },
];

// The parts share @tanstack/react-query as the exports their pages call
// (`shared/src/browser/query/tanstack-react-query.ts`): what it leaves out is not in the browser's copy.
const ONE_QUERY_LIBRARY = [
  {
    name: '@tanstack/react-query',
    importNames: Object.keys(require('@tanstack/react-query')).filter((name) => !QUERY_CLIENT_API.includes(name)),
    message:
      'Not in the TanStack Query the parts share (shared/src/browser/query/tanstack-react-query.ts): add it to that list if a page needs it.',
  },
];

// Where code runs. Browser bundles (the host's and remotes' `src`, and `shared` outside `node/` and
// `testing/`) import no Node built-in and no `server/…`; no production code, browser or
// Node, imports test helpers (`shared/testing/…`, Testing Library, jest). Later blocks replace
// an earlier block's `no-restricted-imports` for the files they match, so each block below
// lists everything its files may not import.
const TEST_FILES = [
  '**/*.test.{ts,tsx}',
  '**/test-utils.{ts,tsx}',
  '**/testing/**',
  'api/test/**',
  'bench/api/**',
  'e2e/**',
  'jest.*',
];
const NODE_ONLY = [
  ...builtinModules
    .filter((name) => !name.startsWith('_'))
    .flatMap((name) => [name, `node:${name}`])
    .map((name) => ({ name, message: 'Browser code runs in the browser: no Node built-ins.' })),
];
const NODE_ONLY_PATTERNS = [
  {
    group: ['server', 'server/*', 'testbed', 'testbed/*', '**/build/*'],
    message:
      'Browser code runs in the browser: `server/…` is for servers, `build/` for webpack, `testbed/…` for tests.',
  },
];
const TEST_ONLY_PATTERNS = [
  {
    group: ['shared/testing/*', '**/testing/*', '@testing-library/*', '@jest/*', 'jest', 'jest-*'],
    message: 'Test helpers stay in tests (`*.test.ts`, `test-utils`, `testing/`).',
  },
];

function whereCodeRuns() {
  const remoteFiles = REMOTES.map((remote) => `${remote}/**/*.{ts,tsx}`);
  const remoteSrc = REMOTES.map((remote) => `${remote}/src/**/*.{ts,tsx}`);
  const restrict = (files, { paths = [], patterns = [] }, ignores = []) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  });
  const remoteLibraries = [...HOST_ONLY_LIBRARIES, ...SHARED_ONLY_LIBRARIES, ...ONE_QUERY_CLIENT];
  return [
    // Production code anywhere: no test helpers.
    restrict(['**/*.{ts,tsx}'], { patterns: TEST_ONLY_PATTERNS }, TEST_FILES),
    // Remotes: their libraries through `shared`; no test helpers outside tests.
    restrict(remoteFiles, { paths: remoteLibraries }),
    restrict(remoteFiles, { paths: remoteLibraries, patterns: TEST_ONLY_PATTERNS }, TEST_FILES),
    restrict(
      remoteSrc,
      {
        paths: [...remoteLibraries, ...ONE_ROUTER, ...ONE_QUERY_LIBRARY, ...NODE_ONLY],
        patterns: [...NODE_ONLY_PATTERNS, ...TEST_ONLY_PATTERNS],
      },
      TEST_FILES,
    ),
    // The host.
    restrict(['host/**/*.{ts,tsx}'], { paths: SHARED_ONLY_LIBRARIES }),
    restrict(['host/**/*.{ts,tsx}'], { paths: SHARED_ONLY_LIBRARIES, patterns: TEST_ONLY_PATTERNS }, TEST_FILES),
    restrict(
      ['host/src/**/*.{ts,tsx}'],
      {
        paths: [...SHARED_ONLY_LIBRARIES, ...ONE_ROUTER, ...ONE_QUERY_LIBRARY, ...NODE_ONLY],
        patterns: [...NODE_ONLY_PATTERNS, ...TEST_ONLY_PATTERNS],
      },
      TEST_FILES,
    ),
    // The bench is Node code, but its stand-in for the federation runtime runs in the monolith's pages.
    restrict(
      ['bench/monolith/federation-runtime.ts'],
      { paths: NODE_ONLY, patterns: [...NODE_ONLY_PATTERNS, ...TEST_ONLY_PATTERNS] },
      TEST_FILES,
    ),
    // `shared`'s browser and universal code.
    restrict(
      ['shared/src/**/*.{ts,tsx}'],
      {
        paths: [...ONE_ROUTER, ...ONE_QUERY_LIBRARY, ...NODE_ONLY],
        patterns: [...NODE_ONLY_PATTERNS, ...TEST_ONLY_PATTERNS],
      },
      TEST_FILES,
    ),
  ];
}

// Import cycles, type imports included: `import-x/no-cycle` skips type imports (and has no option
// to count them), yet a cycle through a type still ties two modules' designs together. Each
// file's imports (any `import`, `export … from`, `import()`, `require()`) are read with
// TypeScript's scanner, resolved as import-x resolves them, and kept until the file changes.
const SOURCE_FILE = /(?<!\.d)\.[cm]?[jt]sx?$/;
const importsCache = new Map();
const importsIn = (text) => ts.preProcessFile(text, true, true).importedFiles;

/** The repository's own source file `specifier` names from `file`, if any. */
function sourceResolver(settings) {
  return (specifier, file) => {
    for (const resolver of settings['import-x/resolver-next'] ?? []) {
      const { found, path } = resolver.resolve(specifier, file);
      if (!found || !path) continue;
      const real = SOURCE_FILE.test(path) ? realpathSync(path) : '';
      return real && !real.includes('/node_modules/') ? real : undefined;
    }
    return undefined;
  };
}

function importsOf(file, resolve) {
  // A file removed since it was resolved (an editor session, a rename) imports nothing.
  const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) return [];
  const cached = importsCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.targets;
  const targets = importsIn(readFileSync(file, 'utf8'))
    .map((ref) => resolve(ref.fileName, file))
    .filter(Boolean);
  importsCache.set(file, { mtimeMs, targets });
  return targets;
}

/** The shortest chain of imports from `start` back to `goal` (both included), or undefined. */
function chainBack(start, goal, resolve) {
  const cameFrom = new Map([[start, undefined]]);
  for (const queue = [start]; queue.length > 0;) {
    const file = queue.shift();
    for (const next of importsOf(file, resolve)) {
      if (next === goal) {
        const chain = [goal];
        for (let step = file; step; step = cameFrom.get(step)) chain.unshift(step);
        return chain;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type imports included' },
    schema: [],
    messages: {
      cycle:
        'Import cycle (type imports count): {{chain}}. Move what they share into a module that imports none of them.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const resolve = sourceResolver(context.settings);
    const { sourceCode } = context;
    return {
      Program() {
        for (const ref of importsIn(sourceCode.text)) {
          const target = resolve(ref.fileName, file);
          const chain = target && target !== file ? chainBack(target, file, resolve) : undefined;
          if (!chain) continue;
          context.report({
            loc: { start: sourceCode.getLocFromIndex(ref.pos), end: sourceCode.getLocFromIndex(ref.end) },
            messageId: 'cycle',
            data: { chain: [file, ...chain].map((step) => relative(__dirname, step)).join(' → ') },
          });
        }
      },
    };
  },
};

module.exports = tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-server/**',
      '**/node_modules/**',
      '**/coverage/**',
      '**/.e2e-tmp/**',
      'bench/.work/**',
      // A rehearsal's staging (its deployed builds) and the gate's results: npm run staging, npm run gate.
      '.staging/**',
      '.gate-results/**',
      'gate-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks, local: { rules: { 'no-import-cycle': noImportCycle } } },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [join(__dirname, '*/tsconfig.json'), join(__dirname, 'tsconfig.json')],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones, basePath: __dirname }],
      'local/no-import-cycle': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  ...whereCodeRuns(),
  // The API contract in the browser: its types only. A value imported from it brings its schemas
  // and zod into a page (the host does not provide the module, so a remote would fetch a copy);
  // the values a page needs are in `shared/api/contract-values`.
  {
    files: [
      'host/src/**/*.{ts,tsx}',
      ...REMOTES.map((remote) => `${remote}/src/**/*.{ts,tsx}`),
      'shared/src/**/*.{ts,tsx}',
    ],
    ignores: [...TEST_FILES, 'shared/src/api/contract.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['shared/api/contract', '**/api/contract', './contract'],
              allowTypeImports: true,
              message:
                "Pages take the contract's types only (`import type`); its plain values are in `shared/api/contract-values`.",
            },
          ],
        },
      ],
    },
  },
  // @playwright/test's fixtures hand their value to `use` (no React hook) and take their
  // dependencies by destructuring, `{}` when they have none.
  {
    files: ['e2e/**/*.ts'],
    rules: {
      'react-hooks/rules-of-hooks': 'off',
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
