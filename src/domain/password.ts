import { z } from 'zod';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const PASSWORD_MESSAGES = {
  required: 'Password is required.',
  tooShort: `Password must be at least ${PASSWORD_MIN} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX} characters.`,
  needsLetterAndNumber: 'Password must contain at least one letter and one number.',
  mismatch: 'New password and confirm password do not match.',
  sameAsOld: 'New password must be different from the old password.',
} as const;

/** The password rules, with a clear message for each (used by register, reset and change). */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(PASSWORD_MIN, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong)
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), PASSWORD_MESSAGES.needsLetterAndNumber);
