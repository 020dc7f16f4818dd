// One lint config for the whole repository. The layering of src/README.md is checked here, not remembered,
// by the local plugin in tests/lint/, which resolves every import (import, export from, import(), require)
// to the file or package it names and classifies both ends by path:
// - src/domain imports only src/domain and the pure packages (zod, luxon, @zxcvbn-ts/*): no framework,
//   driver or Node builtin, and uses no network global (fetch, XMLHttpRequest, WebSocket, EventSource,
//   navigator.sendBeacon).
// - src/local imports src/domain and src/local: no app, server or sw code, no React, no Node builtin;
//   only src/local/db* imports dexie, only src/local imports axios.
// - src/app imports no server or sw code, no Node builtin, no dexie or axios, and never calls fetch or
//   XMLHttpRequest (window., globalThis., self. included). Inside it a feature imports only itself, ui/
//   and shell/; ui/ only ui/; shell/ ui/ and shell/; only routes/ and screens/ compose features.
// - src/server imports no app, local or sw code; only src/server/db imports the database drivers.
// - sw imports no app or server code. tests/ may import anything.
// - No import cycle among our own files (type-only imports excepted: they are erased).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import kincare from './tests/lint/index.js';

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
    // Each rule works out from the linted file's own path which layer it is in and what applies.
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    plugins: { kincare },
    rules: {
      'kincare/layers': 'error',
      'kincare/network-globals': 'error',
      'kincare/no-cycle': 'error',
    },
  },
);
