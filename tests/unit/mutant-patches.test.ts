// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../mutants/mutants.mjs';

// `npm run test:mutants` (not part of `npm test`: it takes minutes) plants each bug of mutants.mjs by
// replacing a piece of the sync modules' text. When that text changes, the patch no longer applies and
// the proof that the chaos test catches the bug is silently gone: two patches broke that way once, when
// the pull and the create were rewritten for speed. This keeps every patch applicable, in `npm test`.
describe('the planted bugs of the mutation run', () => {
  it.each(MUTANTS.flatMap((mutant) => mutant.patches.map((patch) => [mutant.name, patch] as const)))(
    '%s: its patch finds its text exactly once',
    (_name, patch) => {
      const text = readFileSync(patch.file, 'utf8');
      expect(text.split(patch.search).length - 1).toBe(1);
      expect(patch.replace).not.toBe(patch.search);
    },
  );
});
