// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Code cites only documents in the repository (a README beside the code, src/README.md), so a newcomer can
// follow every citation: never the product's outside documents (the spec, its API notes, its architecture
// notes, the design card) nor an issue number. This reads every source file under src/, sw/ and tests/ and
// names the file and line of each such citation.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'sw', 'tests'];
const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|html|sql|md)$/;

/** Folders being reworked by others right now: clean each, then take it off this list. */
const NOT_YET_CLEAN: string[] = [];
/** Never read: files that exist to be linted, and this file, whose patterns name what they look for. */
const NEVER = ['tests/lint/fixtures/', 'tests/unit/citations.test.ts'];

/** What a citation of a document outside the repository looks like, by what it cites. */
const CITATIONS: readonly { cites: string; pattern: RegExp }[] = [
  { cites: 'the spec', pattern: /\bSPEC\b/ }, // SPECIALITIES and SPEC_CAREGIVER_ROUTES are names, not citations
  { cites: 'the spec', pattern: /\bthe spec\b(?!\.|\s+file)|\bspec['’]s\b/i }, // a *.spec.ts file is not it
  { cites: 'API.md', pattern: /\bAPI\.md\b/i },
  { cites: 'ARCHITECTURE.md', pattern: /\bARCHITECTURE\b/ },
  { cites: 'the design card', pattern: /\bDESIGN-CARD\b|\bdesign card\b/i },
  { cites: 'an issue', pattern: /\bissues? #?\d+/i },
  { cites: 'an issue by name', pattern: /\b\w+ issue, points? \d+|\(\w+ issue\)/i },
];

/** The citations in a file's text, as 'path:line: what it cites: the line'. */
function citationsIn(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      CITATIONS.filter(({ pattern }) => pattern.test(line)).map(
        ({ cites }) => `${path}:${index + 1}: cites ${cites}: ${line.trim()}`,
      ),
    );
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return EXTENSIONS.test(entry.name) ? [path] : [];
  });
}

const skipped = (path: string) => [...NOT_YET_CLEAN, ...NEVER].some((prefix) => path.startsWith(prefix));

describe('citations in the code', () => {
  it('recognises a citation, and leaves names and ordinary words alone', () => {
    const planted = [
      '// Toasts stay bottom-center (SPEC section 2).',
      '/** The error body (API.md). */',
      '// the one-machine default of ARCHITECTURE.md',
      '// as the DESIGN-CARD says',
      '// POST /api/lab-reports/ocr (issue 12, point 3)',
      '// Benchmark (Issue 8): first load',
      '// The authorization matrix (caregivers issue, point 7)',
      '/** The access of a link (caregivers issue). */',
    ];
    expect(planted.map((line) => citationsIn('x.ts', line).length)).toEqual(planted.map(() => 1));
    const clean = [
      "import { SPECIALITIES } from '../../src/domain/directory';",
      'const SPEC_CAREGIVER_ROUTES = [];',
      'const code = await resetCodes.issue(account.id);',
      "// tokens the server did not issue as they are (see src/README.md, 'Adding a resource')",
      "test('runs the shell.spec.ts specs', () => {});",
    ];
    expect(clean.flatMap((line) => citationsIn('x.ts', line))).toEqual([]);
  });

  it('finds none in src/, sw/ and tests/ (cite the README that says it instead)', () => {
    const files = SCANNED.flatMap(filesUnder).filter((path) => !skipped(path));
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((path) => citationsIn(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(found).toEqual([]);
  });
});
