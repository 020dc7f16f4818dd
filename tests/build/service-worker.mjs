import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The service worker is registered as a classic script, where import() and import.meta are errors: one
// module that reaches a dynamic import (a lazily loaded library, Vite's preload helper) makes the whole
// script fail to evaluate, and the installed app stops working offline with nothing on screen to say so.
// Run after `vite build` (npm test does): exits 1 naming what it found.

export function serviceWorkerProblems(source) {
  const problems = [];
  if (/\bimport\.meta\b/.test(source)) problems.push('import.meta (Vite’s preload helper or a module URL)');
  if (/(^|[^\w$.])import\s*\(/m.test(source)) problems.push('a dynamic import()');
  if (/^\s*(import|export)\s/m.test(source)) problems.push('a top-level import or export statement');
  return problems;
}

function main() {
  const file = process.env.SW_FILE ?? 'dist/sw.js';
  const problems = serviceWorkerProblems(readFileSync(file, 'utf8'));
  if (problems.length === 0) {
    console.log(`ok   ${file}: a classic script (no import(), no import.meta)`);
    return;
  }
  console.error(`FAIL ${file} would not run as a service worker: it holds ${problems.join(', ')}.`);
  console.error(
    '     Something sw/sw.ts imports reaches a dynamic import: import its rules from a module that does not.',
  );
  process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
