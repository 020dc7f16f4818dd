import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// The layering of src/README.md is enforced by lint (tests/lint/, turned on in eslint.config.js): each
// forbidden import or call below must be flagged by the rule named beside it, however it is written (a
// longer path, a nested folder, import(), export from, require), and each allowed one must pass.
const eslint = new ESLint({ cwd: process.cwd() });

type Rule = 'layers' | 'network-globals' | 'no-cycle';

/** The messages of our own rules on `code` linted as `filePath`, each as 'rule: message'. */
async function ruleErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId?.startsWith('kincare/'))
    .map((message) => `${message.ruleId?.slice('kincare/'.length)}: ${message.message}`);
}

const uses = (name: string) => `export const b = ${name};\n`;

// [file, code, the rule that must flag it]
const FORBIDDEN: [string, string, Rule][] = [
  // src/domain: nothing of ours outside it, no framework, driver or Node builtin, no network.
  ['src/domain/x.ts', "import { a } from '../local/session';\n" + uses('a'), 'layers'],
  ['src/domain/x.ts', "import axios from 'axios';\n" + uses('axios'), 'layers'],
  ['src/domain/x.ts', "import { useState } from 'react';\n" + uses('useState'), 'layers'],
  ['src/domain/x.ts', "import { eq } from 'drizzle-orm';\n" + uses('eq'), 'layers'],
  ['src/domain/x.ts', "import pg from 'pg';\n" + uses('pg'), 'layers'],
  ['src/domain/x.ts', "import Fastify from 'fastify';\n" + uses('Fastify'), 'layers'],
  ['src/domain/x.ts', "import { Workbox } from 'workbox-window';\n" + uses('Workbox'), 'layers'],
  ['src/domain/x.ts', "import { randomUUID } from 'node:crypto';\n" + uses('randomUUID'), 'layers'],
  ['src/domain/x.ts', "import { readFile } from 'fs/promises';\n" + uses('readFile'), 'layers'],
  ['src/domain/rules/x.ts', "import { a } from '../../app/main';\n" + uses('a'), 'layers'],
  ['src/domain/x.ts', "export * from '../server/app';\n", 'layers'],
  ['src/domain/x.ts', "import { a } from '../../vite.config';\n" + uses('a'), 'layers'],
  ['src/domain/x.ts', "export type Db = import('../local/db').KincareDb;\n", 'layers'],
  ['src/domain/x.ts', "export const load = () => fetch('/api/health');\n", 'network-globals'],
  ['src/domain/x.ts', 'export const request = () => new XMLHttpRequest();\n', 'network-globals'],
  ['src/domain/x.ts', "export const open = () => new WebSocket('wss://x');\n", 'network-globals'],
  ['src/domain/x.ts', "export const listen = () => new EventSource('/events');\n", 'network-globals'],
  ['src/domain/x.ts', "export const send = () => navigator.sendBeacon('/x', '');\n", 'network-globals'],
  [
    'src/domain/x.ts',
    "export const send = () => window.navigator.sendBeacon('/x', '');\n",
    'network-globals',
  ],
  ['src/domain/x.ts', "export const load = () => globalThis.fetch('/x');\n", 'network-globals'],
  // src/local: no app, server or sw code, no React, no Node builtin; dexie in src/local/db* only.
  ['src/local/x.ts', "import { a } from '../app/main';\n" + uses('a'), 'layers'],
  ['src/local/sync.ts', "import Dexie from 'dexie';\n" + uses('Dexie'), 'layers'],
  ['src/local/x.ts', "import { a } from '../server/app';\n" + uses('a'), 'layers'],
  ['src/local/x.ts', "import { a } from '../app';\n" + uses('a'), 'layers'],
  ['src/local/x.ts', "import { a } from '../../sw/sw';\n" + uses('a'), 'layers'],
  ['src/local/x.ts', "import { useEffect } from 'react';\n" + uses('useEffect'), 'layers'],
  ['src/local/x.ts', "import { useLiveQuery } from 'dexie-react-hooks';\n" + uses('useLiveQuery'), 'layers'],
  ['src/local/x.ts', "import { join } from 'node:path';\n" + uses('join'), 'layers'],
  // src/app: no server or sw code, no Node builtin, no dexie or axios, no fetch or XMLHttpRequest.
  ['src/app/shell/x.ts', "import { a } from '../../server/app';\n" + uses('a'), 'layers'],
  ['src/app/shell/x.ts', "import axios from 'axios';\n" + uses('axios'), 'layers'],
  ['src/app/features/profile/x.ts', "import Dexie from 'dexie';\n" + uses('Dexie'), 'layers'],
  ['src/app/ui/x.ts', "import { a } from '../../../sw/sw';\n" + uses('a'), 'layers'],
  ['src/app/ui/x.ts', "import { join } from 'path';\n" + uses('join'), 'layers'],
  ['src/app/features/profile/x.ts', "export const load = () => fetch('/api/me');\n", 'network-globals'],
  ['src/app/ui/x.ts', "export const load = () => window.fetch('/api/me');\n", 'network-globals'],
  ['src/app/ui/x.ts', "export const load = () => self.fetch('/api/me');\n", 'network-globals'],
  ['src/app/ui/x.ts', "export const load = () => window['fetch']('/api/me');\n", 'network-globals'],
  [
    'src/app/ui/x.ts',
    'const { fetch: get } = globalThis;\nexport const load = () => get;\n',
    'network-globals',
  ],
  ['src/app/shell/x.ts', 'export const request = () => new XMLHttpRequest();\n', 'network-globals'],
  // A feature never imports another feature, whatever the path or form.
  ['src/app/features/profile/x.ts', "import { a } from '../auth/login-page';\n" + uses('a'), 'layers'],
  [
    'src/app/features/profile/x.ts',
    "import { a } from '../../features/auth/login-page';\n" + uses('a'),
    'layers',
  ],
  [
    'src/app/features/profile/x.ts',
    "import { a } from '../profile/../auth/login-page';\n" + uses('a'),
    'layers',
  ],
  [
    'src/app/features/profile/parts/x.ts',
    "import { a } from '../../auth/login-page';\n" + uses('a'),
    'layers',
  ],
  ['src/app/features/profile/x.ts', "import { a } from '../auth';\n" + uses('a'), 'layers'],
  ['src/app/features/profile/x.ts', "export const load = () => import('../auth/login-page');\n", 'layers'],
  ['src/app/features/profile/x.ts', 'export const load = () => import(`../auth/login-page`);\n', 'layers'],
  ['src/app/features/profile/x.ts', "export * from '../auth/login-page';\n", 'layers'],
  ['src/app/features/profile/x.ts', "export { LoginPage } from '../auth/login-page';\n", 'layers'],
  ['src/app/features/profile/x.ts', "export const page = require('../auth/login-page');\n", 'layers'],
  [
    'src/app/features/profile/x.ts',
    "import page = require('../auth/login-page');\nexport const b = page;\n",
    'layers',
  ],
  ['src/app/features/profile/x.ts', 'export const load = (path: string) => import(path);\n', 'layers'],
  // ui imports neither shell, nor features, routes or screens; the shell imports no feature; only routes and
  // screens compose features (not the app's root files).
  ['src/app/ui/x.ts', "import { a } from '../shell/layout';\n" + uses('a'), 'layers'],
  ['src/app/ui/speech/x.ts', "export const load = () => import('../../shell/toasts');\n", 'layers'],
  ['src/app/ui/x.ts', "import { a } from '../features/auth/login-page';\n" + uses('a'), 'layers'],
  ['src/app/ui/x.ts', "import { a } from '../routes/__root';\n" + uses('a'), 'layers'],
  ['src/app/ui/x.ts', "import { a } from '../screens/home/dashboard-page';\n" + uses('a'), 'layers'],
  ['src/app/shell/x.ts', "export const load = () => import('../features/auth/login-page');\n", 'layers'],
  ['src/app/shell/x.ts', "import { a } from '../screens/home/dashboard-page';\n" + uses('a'), 'layers'],
  ['src/app/shell/x.ts', "import { a } from '../routes/__root';\n" + uses('a'), 'layers'],
  ['src/app/x.ts', "export const load = () => import('./features/subscription/use-billing');\n", 'layers'],
  ['src/app/screens/x.ts', "import { Route } from '../routes/__root';\n" + uses('Route'), 'layers'],
  // src/server: no app, local or sw code; database drivers in src/server/db only.
  ['src/server/routes/x.ts', "import { a } from '../../local/db';\n" + uses('a'), 'layers'],
  ['src/server/routes/x.ts', "import { PGlite } from '@electric-sql/pglite';\n" + uses('PGlite'), 'layers'],
  ['src/server/routes/x.ts', "import { a } from '../../app/main';\n" + uses('a'), 'layers'],
  ['src/server/x.ts', "export * from '../../sw/sw';\n", 'layers'],
  ['src/server/x.ts', "import pg from 'pg';\n" + uses('pg'), 'layers'],
  ['src/server/x.ts', "import { drizzle } from 'drizzle-orm/node-postgres';\n" + uses('drizzle'), 'layers'],
  ['src/local/db.ts', "import { drizzle } from 'drizzle-orm/pglite';\n" + uses('drizzle'), 'layers'],
  // sw: no app or server code.
  ['sw/x.ts', "import { a } from '../src/app/main';\n" + uses('a'), 'layers'],
  ['sw/x.ts', "import { a } from '../src/server/app';\n" + uses('a'), 'layers'],
  ['sw/x.ts', "import Dexie from 'dexie';\n" + uses('Dexie'), 'layers'],
  // No import cycle (tests/lint/fixtures/cycle: b.ts imports c.ts, which imports a.ts).
  ['tests/lint/fixtures/cycle/a.ts', "import { b } from './b';\nexport const a = b;\n", 'no-cycle'],
  ['tests/lint/fixtures/cycle/a.ts', "export const load = () => import('./b');\n", 'no-cycle'],
  ['tests/lint/fixtures/cycle/a.ts', "export * from './b.js';\n", 'no-cycle'],
  ['tests/lint/fixtures/cycle/a.ts', "export const load = () => require('./b');\n", 'no-cycle'],
];

const ALLOWED: [string, string][] = [
  [
    'src/domain/x.ts',
    "import { z } from 'zod';\nimport { DateTime } from 'luxon';\n" + uses('[z, DateTime]'),
  ],
  [
    'src/domain/x.ts',
    "import { zxcvbn } from '@zxcvbn-ts/core';\nimport { a } from './clock';\n" + uses('[zxcvbn, a]'),
  ],
  ['src/domain/x.ts', "const fetch = (path: string) => path;\nexport const b = fetch('/x');\n"],
  ['src/local/db.ts', "import Dexie from 'dexie';\n" + uses('Dexie')],
  ['src/local/db-schema.ts', "import Dexie from 'dexie';\n" + uses('Dexie')],
  [
    'src/local/x.ts',
    "import axios from 'axios';\nimport { a } from '../domain/clock';\n" + uses('[axios, a]'),
  ],
  ['src/local/x.ts', "export const load = () => fetch('/api/health');\n"],
  [
    'src/app/features/profile/x.ts',
    "import { a } from '../../ui/button';\nimport { c } from './profile-form';\nexport const b = [a, c];\n",
  ],
  ['src/app/features/profile/parts/x.ts', "import { a } from '../profile-form';\n" + uses('a')],
  ['src/app/features/profile/x.ts', "import { a } from '../../shell/use-session';\n" + uses('a')],
  ['src/app/features/profile/x.ts', "export const load = () => import('./profile-form');\n"],
  [
    'src/app/features/profile/x.ts',
    "import { useLiveQuery } from 'dexie-react-hooks';\n" + uses('useLiveQuery'),
  ],
  ['src/app/features/profile/x.ts', "import { userDb } from '../../../local/db';\n" + uses('userDb')],
  ['src/app/features/profile/x.ts', 'export const load = (client: { fetch(): void }) => client.fetch();\n'],
  [
    'src/app/ui/x.ts',
    "import { a } from './button';\nimport { b } from './speech/speech-switch';\n" + uses('[a, b]'),
  ],
  [
    'src/app/shell/x.ts',
    "import { a } from '../ui/button';\nimport { b } from './use-session';\n" + uses('[a, b]'),
  ],
  [
    'src/app/screens/x.ts',
    "export const load = () => [import('../features/auth/login-page'), import('../features/fitbit/x')];\n",
  ],
  ['src/app/screens/home/x.ts', "import { a } from '../../features/dashboard/home-card';\n" + uses('a')],
  [
    'src/app/routes/x.ts',
    "import { a } from '../features/auth/login-page';\nimport { b } from '../screens/home/dashboard-page';\n" +
      uses('[a, b]'),
  ],
  [
    'src/app/x.ts',
    "import { a } from './routes/__root';\nimport { b } from './shell/error-toasts';\n" + uses('[a, b]'),
  ],
  ['src/server/db/client.ts', "import { PGlite } from '@electric-sql/pglite';\n" + uses('PGlite')],
  [
    'src/server/db/client.ts',
    "import { drizzle } from 'drizzle-orm/node-postgres';\nimport pg from 'pg';\n" + uses('[drizzle, pg]'),
  ],
  [
    'src/server/x.ts',
    "import { readFile } from 'node:fs/promises';\nimport { a } from '../domain/clock';\n" +
      uses('[readFile, a]'),
  ],
  ['src/server/x.ts', 'export const load = (path: string) => import(path);\n'],
  ['sw/x.ts', "import { a } from '../src/local/db';\n" + uses('a')],
  ['sw/x.ts', "import { a } from '../src/domain/clock';\n" + uses('a')],
  [
    'tests/unit/x.ts',
    "import { a } from '../../src/server/app';\nimport pg from 'pg';\nimport Dexie from 'dexie';\n" +
      uses('[a, pg, Dexie]'),
  ],
  // A type-only import is erased before the code runs: it makes no cycle.
  ['tests/lint/fixtures/cycle/a.ts', "import type { B } from './b';\nexport const a: B = 'b';\n"],
  ['tests/lint/fixtures/cycle/a.ts', "export type A = import('./b').B;\nexport const a: A = 'b';\n"],
  ['tests/lint/fixtures/cycle/b.ts', "import { c } from './c';\nexport const b = c;\n"],
];

describe('layering by lint', () => {
  it.each(FORBIDDEN)('%s may not: %s', async (file, code, rule) => {
    const errors = await ruleErrors(file, code);
    expect(errors.filter((error) => error.startsWith(`${rule}: `))).not.toEqual([]);
  });

  it.each(ALLOWED)('%s may: %s', async (file, code) => {
    expect(await ruleErrors(file, code)).toEqual([]);
  });

  it('names the files of a cycle, in order', async () => {
    const errors = await ruleErrors(
      'tests/lint/fixtures/cycle/a.ts',
      "import { b } from './b';\nexport const a = b;\n",
    );
    expect(errors).toEqual([
      'no-cycle: Import cycle: tests/lint/fixtures/cycle/a.ts -> tests/lint/fixtures/cycle/b.ts -> tests/lint/fixtures/cycle/c.ts -> tests/lint/fixtures/cycle/a.ts.',
    ]);
  });

  it('says why a feature may not import another, and where composing goes', async () => {
    const errors = await ruleErrors(
      'src/app/features/dashboard/x.ts',
      "export const load = () => import('../../features/fitbit/fitbit-home-card');\n",
    );
    expect(errors).toEqual([
      'layers: A feature never imports another feature (src/app/features/dashboard imports src/app/features/fitbit): what composes features lives in src/app/routes or src/app/screens; shared code goes to src/app/ui or src/domain.',
    ]);
  });
});
