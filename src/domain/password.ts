import { z } from 'zod';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** zxcvbn's 0-4 scale: 3 means "safely unguessable" against an online attack and a slow hash. */
export const PASSWORD_MIN_SCORE = 3;

/**
 * The strength check runs synchronously inside schema validation (on the device, and in the server's event
 * loop), and zxcvbn's cost grows faster than the length: 20 to 60 ms for 64 characters of repeated words,
 * twice that at 128. Only the first 64 characters are judged; a password whose first 64 are weak is weak.
 */
export const PASSWORD_STRENGTH_CHECKED_LENGTH = 64;

export const PASSWORD_MESSAGES = {
  required: 'Password is required.',
  tooShort: `Password must be at least ${PASSWORD_MIN} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX} characters.`,
  needsLetterAndNumber: 'Password must contain at least one letter and one number.',
  tooEasy: 'This password is too easy to guess. Add more words or characters that are not common.',
  mismatch: 'New password and confirm password do not match.',
  sameAsOld: 'New password must be different from the old password.',
} as const;

// Only language-common (the common-password list, the diceware words and the keyboard layouts): with
// zxcvbn's code it is about 460 kB minified, 240 kB gzipped, too much for the first screen of the app,
// so it is loaded on demand, in a chunk of its own. language-en's word and name lists would add 1.2 MB
// more and make each check about four times slower, for little.
let checker: ZxcvbnFactory | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the strength check (once; later calls answer the same promise). The server awaits it before it
 * takes requests, so it always judges; the app may call it when a screen with a new password opens, and
 * the first check starts it anyway.
 */
export function loadPasswordStrength(): Promise<void> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => {
      // Building the ranked dictionaries takes about 25 ms: here, not in the first check.
      checker = new core.ZxcvbnFactory({
        dictionary: common.dictionary,
        graphs: common.adjacencyGraphs,
        maxLength: PASSWORD_STRENGTH_CHECKED_LENGTH,
      });
    },
    (error: unknown) => {
      loading = undefined; // a failed download (offline) may be retried
      throw error;
    },
  );
  return loading;
}

/**
 * zxcvbn's score (0-4) of the password, or null while the check is still loading (the app then leaves
 * the judgement to the server, which has it loaded). One check of a typical password takes about 1 ms.
 */
export function passwordScore(password: string): number | null {
  if (!checker) {
    loadPasswordStrength().catch(() => undefined);
    return null;
  }
  return checker.check(password).score;
}

/**
 * The password rules, with a clear message for each (used by register, reset and change): the spec's
 * length and letter-and-number rule, then, when those hold, zxcvbn's guessability score, so `password1`
 * and `Password1!` are refused although they pass the spec's rule.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(PASSWORD_MIN, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong)
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), PASSWORD_MESSAGES.needsLetterAndNumber)
  // Only on a password that passes the rules above: their messages say what to fix first, and a too
  // short or too long one is not worth the check's cost.
  .refine((value) => (passwordScore(value) ?? PASSWORD_MIN_SCORE) >= PASSWORD_MIN_SCORE, {
    message: PASSWORD_MESSAGES.tooEasy,
    when: (payload) => payload.issues.length === 0,
  });
