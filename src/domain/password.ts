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
  tooPersonal:
    'This password is too easy to guess: it is built on your name, your e-mail address or the name Kincare. Add words or characters of your own.',
  mismatch: 'New password and confirm password do not match.',
  sameAsOld: 'New password must be different from the old password.',
} as const;

/**
 * The product's own name, the first word anyone guessing a Kincare password tries. zxcvbn also finds it
 * reversed, in capitals and in leetspeak (k1nc4re), so these few spellings cover its obvious variants.
 */
const PRODUCT_WORDS = ['kincare', 'kincareapp', 'kincarehealth', 'mykincare'];
const PRODUCT_DICTIONARY = 'kincare';
/** zxcvbn's name for the dictionary of the words passed to a check (here: the owner's name and e-mail). */
const OWNER_DICTIONARY = 'userInputs';

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
        dictionary: { ...common.dictionary, [PRODUCT_DICTIONARY]: PRODUCT_WORDS },
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

/** Whose password it is: their name and e-mail address are what someone who knows them guesses first. */
export type PasswordOwner = { name?: string | undefined; email?: string | undefined };

/**
 * 'too-easy': guessable as a whole. 'too-personal': guessable, or strong only thanks to what surrounds
 * the owner's name, e-mail or the product's name (kincare2026, AshaRao1980!): those words count for
 * nothing, and what is left must be strong on its own.
 */
export type PasswordVerdict = 'strong' | 'too-easy' | 'too-personal';

/** The words of a name and an e-mail address worth guessing: whole, and in their parts of 3 letters or more. */
export function ownerWords(owner: PasswordOwner): string[] {
  const words = new Set<string>();
  const add = (word: string) => {
    const lower = word.toLowerCase();
    if (lower.length >= 3) words.add(lower);
  };
  const addWithParts = (text: string) => {
    add(text);
    add(text.replace(/[^\p{L}\p{N}]+/gu, ''));
    for (const part of text.split(/[^\p{L}\p{N}]+/u)) add(part);
  };
  if (owner.name) addWithParts(owner.name.trim());
  if (owner.email) {
    const [local = '', domain = ''] = owner.email.trim().split('@');
    addWithParts(local);
    // The domain's names, not its ending (example in example.com, not com).
    for (const label of domain.split('.').slice(0, -1)) add(label);
  }
  return [...words];
}

/** A password with the product's name and the owner's words cut out: what guessing it really takes. */
function withoutGivenWords(password: string, words: string[], zxcvbn: ZxcvbnFactory) {
  let rest = password.slice(0, PASSWORD_STRENGTH_CHECKED_LENGTH);
  let result = zxcvbn.check(rest, words);
  const firstScore = result.score;
  let found = false;
  // A word cut out can join two halves of another ('rao' + 'asha' in 'raoasha'): cut until none is left.
  for (let round = 0; round < 4; round += 1) {
    const given = result.sequence.filter(
      (match) =>
        match.pattern === 'dictionary' &&
        'dictionaryName' in match &&
        (match.dictionaryName === PRODUCT_DICTIONARY || match.dictionaryName === OWNER_DICTIONARY),
    );
    if (given.length === 0) break;
    found = true;
    let cut = '';
    let from = 0;
    for (const match of given) {
      cut += rest.slice(from, match.i);
      from = match.j + 1;
    }
    rest = cut + rest.slice(from);
    result = zxcvbn.check(rest, words);
  }
  return { firstScore, found, restScore: result.score };
}

/**
 * How guessable the password is for this owner, or null while the check is still loading (the app then
 * leaves the judgement to the server, which has it loaded). One check of a typical password takes about
 * 1 ms; one with the product's name or the owner's words in it, two or three.
 */
export function judgePassword(password: string, owner: PasswordOwner = {}): PasswordVerdict | null {
  if (!checker) {
    loadPasswordStrength().catch(() => undefined);
    return null;
  }
  const { firstScore, found, restScore } = withoutGivenWords(password, ownerWords(owner), checker);
  if (firstScore >= PASSWORD_MIN_SCORE && restScore >= PASSWORD_MIN_SCORE) return 'strong';
  return found ? 'too-personal' : 'too-easy';
}

/** What a person is told about a password of this verdict; null when there is nothing to say. */
export function passwordRefusal(verdict: PasswordVerdict | null): string | null {
  if (verdict === 'too-easy') return PASSWORD_MESSAGES.tooEasy;
  if (verdict === 'too-personal') return PASSWORD_MESSAGES.tooPersonal;
  return null;
}

/** Only on a password that passes every other rule: their messages say what to fix first. */
const whenNothingElseIsWrong = {
  when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
};

/**
 * The refinement (for superRefine) of a body holding a new password and naming its owner (register: the
 * name and e-mail): the password judged with the owner's words, reported on its own field.
 */
export function ownPasswordRefinement<Field extends string, Body extends Record<Field, string>>(
  field: Field,
  ownerOf: (body: Body) => PasswordOwner,
) {
  return [
    (body: Body, context: z.RefinementCtx<Body>) => {
      const message = passwordRefusal(judgePassword(body[field], ownerOf(body)));
      if (message) context.addIssue({ code: 'custom', message, path: [field] });
    },
    whenNothingElseIsWrong,
  ] as const;
}

/**
 * The password rules, with a clear message for each (used by register, reset and change): the
 * length and letter-and-number rule, then, when those hold, zxcvbn's guessability score, so `password1`
 * and `Password1!` are refused although they pass that rule, and so is `Kincare2026!`.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(PASSWORD_MIN, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong)
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), PASSWORD_MESSAGES.needsLetterAndNumber)
  // Only on a password that passes the rules above: their messages say what to fix first, and a too
  // short or too long one is not worth the check's cost. Here it is judged with the product's name only;
  // a body that names the owner judges it with their words too (ownPasswordRefinement).
  .superRefine((value, context) => {
    const message = passwordRefusal(judgePassword(value));
    if (message) context.addIssue({ code: 'custom', message });
  }, whenNothingElseIsWrong);
