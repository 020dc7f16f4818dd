import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// The import rules of ARCHITECTURE.md are enforced by lint: each forbidden import below must be flagged.
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('layering by lint', () => {
  it.each([
    ['src/domain/x.ts', "import { a } from '../local/session';\nexport const b = a;\n"],
    ['src/domain/x.ts', "import axios from 'axios';\nexport const b = axios;\n"],
    ['src/local/x.ts', "import { a } from '../app/main';\nexport const b = a;\n"],
    ['src/local/sync.ts', "import Dexie from 'dexie';\nexport const b = Dexie;\n"],
    ['src/app/shell/x.ts', "import { a } from '../../server/app';\nexport const b = a;\n"],
    ['src/app/shell/x.ts', "import axios from 'axios';\nexport const b = axios;\n"],
    ['src/app/features/profile/x.ts', "import { a } from '../auth/login-page';\nexport const b = a;\n"],
    ['src/server/routes/x.ts', "import { a } from '../../local/db';\nexport const b = a;\n"],
    ['src/server/routes/x.ts', "import { PGlite } from '@electric-sql/pglite';\nexport const b = PGlite;\n"],
    ['sw/x.ts', "import { a } from '../src/app/main';\nexport const b = a;\n"],
  ])('%s may not: %s', async (file, code) => {
    expect(await importErrors(file, code)).not.toEqual([]);
  });

  it.each([
    ['src/local/db.ts', "import Dexie from 'dexie';\nexport const b = Dexie;\n"],
    [
      'src/app/features/profile/x.ts',
      "import { a } from '../../ui/button';\nimport { c } from './profile-form';\nexport const b = [a, c];\n",
    ],
    ['src/server/db/client.ts', "import { PGlite } from '@electric-sql/pglite';\nexport const b = PGlite;\n"],
    ['sw/x.ts', "import { a } from '../src/local/db';\nexport const b = a;\n"],
  ])('%s may: %s', async (file, code) => {
    expect(await importErrors(file, code)).toEqual([]);
  });
});
