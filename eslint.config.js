// One flat config for every workspace, with the import boundaries that keep the parts
// independently deployable (CONVENTIONS.md: "Boundaries").
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');
const { join } = require('node:path');

const REMOTES = ['remote-gifts', 'remote-redeem', 'remote-content'];
const APPS = ['host', ...REMOTES, 'api'];

const zones = [
  // A remote imports only itself and shared.
  ...REMOTES.map((remote) => ({
    target: `./${remote}`,
    from: APPS.filter((app) => app !== remote).map((app) => `./${app}`),
    message: 'A remote imports only its own code and `shared`.',
  })),
  // The host reaches remotes through the federation runtime, never their source.
  { target: './host', from: [...REMOTES, 'api'].map((app) => `./${app}`), message: 'The host loads remotes at run time; import `shared` contracts instead.' },
  { target: './shared', from: [...APPS, 'e2e'].map((app) => `./${app}`), message: '`shared` imports no app.' },
  { target: './api', from: ['host', ...REMOTES, 'e2e'].map((app) => `./${app}`), message: 'The API imports only `shared` contracts.' },
  { target: './e2e', from: [...APPS, 'shared'].map((app) => `./${app}`), message: 'Browser tests exercise the built, served apps; they import no source.' },
];

// Third-party libraries the host alone loads; remotes reach them through `shared` facades.
const HOST_ONLY_LIBRARIES = [
  { name: 'mixpanel-browser', message: 'Track through `shared/analytics`; the host owns Mixpanel and consent.' },
  { name: 'crisp-sdk-web', message: 'Use `shared/chat`; the host loads the chat widget.' },
];
const SHARED_ONLY_LIBRARIES = [
  { name: '@iconify/react', message: 'Use `shared/icons/icon`: bundled icons and the configured icon service.' },
  { name: '@iconify/react/offline', message: 'Use `shared/icons/icon`: bundled icons and the configured icon service.' },
];

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', '**/coverage/**', '**/.e2e-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: [join(__dirname, '*/tsconfig.json'), join(__dirname, 'tsconfig.json')], noWarnOnMultipleProjects: true })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones, basePath: __dirname }],
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: REMOTES.map((remote) => `${remote}/**/*.{ts,tsx}`),
    rules: { 'no-restricted-imports': ['error', { paths: [...HOST_ONLY_LIBRARIES, ...SHARED_ONLY_LIBRARIES] }] },
  },
  {
    files: ['host/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: SHARED_ONLY_LIBRARIES }] },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
