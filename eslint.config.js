// One lint config for the whole repository. The import rules of ARCHITECTURE.md live here so that
// the layering (domain <- local <- app, domain <- server, local <- sw) is checked, not remembered.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ours = (...layers) =>
  layers.map((layer) => ({
    group: [`**/${layer}/**`],
    message: `This layer may not import ${layer}/ (see ARCHITECTURE.md).`,
  }));
const dbDrivers = [
  'pg',
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'drizzle-orm/pglite',
  'drizzle-orm/pglite/*',
  'drizzle-orm/node-postgres',
  'drizzle-orm/node-postgres/*',
];
const restrict = (patterns, paths = []) => ['error', { patterns, paths }];
const onlyIn = (names, where) =>
  names.map((name) => ({ name, message: `Only ${where} may import ${name}.` }));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      'node_modules/**',
      'src/app/routeTree.gen.ts',
      'test-results/**',
      'playwright-report/**',
      'coverage/**', // Stryker's sandbox and reports
      'tests/e2e/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': restrict(
        ours('local', 'app', 'server', 'sw'),
        onlyIn(['axios', 'dexie'], 'src/local'),
      ),
    },
  },
  {
    files: ['src/local/**'],
    ignores: ['src/local/db*'],
    rules: {
      'no-restricted-imports': restrict(ours('app', 'server', 'sw'), onlyIn(['dexie'], 'src/local/db*')),
    },
  },
  {
    files: ['src/local/db*'],
    rules: { 'no-restricted-imports': restrict(ours('app', 'server', 'sw')) },
  },
  {
    files: ['src/app/**'],
    rules: {
      'no-restricted-imports': restrict(
        ours('server', 'sw'),
        onlyIn(['dexie', 'axios'], 'src/local (src/local/db* for dexie)'),
      ),
    },
  },
  {
    // A feature never imports another feature: from src/app/features/<name>/file, '../x' leaves the feature.
    files: ['src/app/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        [
          ...ours('server', 'sw'),
          {
            regex: '^\\.\\./(?!\\.\\./)',
            message: 'A feature never imports another feature; move shared code to ui/ or domain/.',
          },
        ],
        onlyIn(['dexie', 'axios'], 'src/local'),
      ),
    },
  },
  {
    files: ['src/server/**'],
    ignores: ['src/server/db/**'],
    rules: {
      'no-restricted-imports': restrict(ours('app', 'local', 'sw'), [
        ...onlyIn(dbDrivers, 'src/server/db'),
        ...onlyIn(['dexie', 'axios'], 'src/local'),
      ]),
    },
  },
  {
    files: ['src/server/db/**'],
    rules: { 'no-restricted-imports': restrict(ours('app', 'local', 'sw')) },
  },
  {
    files: ['sw/**'],
    rules: {
      'no-restricted-imports': restrict(ours('app', 'server'), onlyIn(['axios', 'dexie'], 'src/local')),
    },
  },
);
