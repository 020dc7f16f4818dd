// A throwaway copy of the repository in which code can be changed without touching the working tree:
// src/, tests/, sw/, public/ and the configs are copied, node_modules is a symlink to the real one.
// Patches are textual (file, exact search text, replacement); a search text that is missing, or found
// more than once, stops everything: the code it was written against has moved, and a patch that silently
// does nothing would make a mutant look "caught" or "missed" for the wrong reason.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

const COPIED = [
  'src',
  'tests',
  'sw',
  'public',
  'package.json',
  'tsconfig.json',
  'vite.config.ts',
  'index.html',
  'tailwind.config.ts',
  'eslint.config.js',
];
const SKIPPED = /(^|\/)(node_modules|dist|data|\.tmp|test-results|playwright-report)(\/|$)/;

export class PatchError extends Error {}

/** Checks that every patch applies to the working tree's files exactly once, without changing anything. */
export function checkPatches(patches, root = REPOSITORY) {
  const problems = [];
  for (const patch of patches) {
    const file = join(root, patch.file);
    if (!existsSync(file)) {
      problems.push(`${patch.file}: the file does not exist`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const found = text.split(patch.search).length - 1;
    if (found !== 1)
      problems.push(
        `${patch.file}: the search text is found ${found} times (it must be found once):\n${indent(patch.search)}`,
      );
  }
  return problems;
}

export function makeSandbox(prefix = 'kincare-sandbox-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const entry of COPIED) {
    const from = join(REPOSITORY, entry);
    if (!existsSync(from)) continue;
    cpSync(from, join(dir, entry), {
      recursive: true,
      filter: (source) => !SKIPPED.test(source.slice(REPOSITORY.length)),
    });
  }
  symlinkSync(join(REPOSITORY, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    apply(patches) {
      for (const patch of patches) {
        const file = join(dir, patch.file);
        const text = readFileSync(file, 'utf8');
        const found = text.split(patch.search).length - 1;
        if (found !== 1)
          throw new PatchError(
            `${patch.file}: the search text is found ${found} times (it must be found once):\n${indent(patch.search)}`,
          );
        writeFileSync(
          file,
          text.replace(patch.search, () => patch.replace),
        );
      }
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `    | ${line}`)
    .join('\n');
}
