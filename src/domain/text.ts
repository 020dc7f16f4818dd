import { z } from 'zod';

// Text that people type reaches the database, the logs and other people's screens. Control characters
// (a NUL byte makes Postgres refuse the whole statement) and unpaired UTF-16 surrogates (not text at all:
// they cannot be stored as UTF-8) are refused where the text comes in, with a message, in the domain
// schemas, so the app says it before sending and the server says it with a 400.

export const TEXT_MESSAGES = {
  controlCharacters: 'This field contains characters that cannot be saved (control characters).',
  brokenCharacters: 'This field contains broken characters that cannot be saved.',
} as const;

// C0 controls except tab, line feed and carriage return (multi-line notes keep those), DEL and the C1 controls.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this text cannot be saved, or null when it can. */
export function unsafeTextReason(value: string): string | null {
  if (CONTROL_CHARACTER.test(value)) return TEXT_MESSAGES.controlCharacters;
  if (LONE_SURROGATE.test(value)) return TEXT_MESSAGES.brokenCharacters;
  return null;
}

/** Refines any string schema (after trim, max and the like) to refuse control characters and lone surrogates. */
export function safeText<Schema extends z.ZodType<string>>(schema: Schema) {
  return schema.superRefine((value, context) => {
    const reason = unsafeTextReason(value);
    if (reason) context.addIssue({ code: 'custom', message: reason });
  });
}

/** A plain text field: a string without control characters or broken characters. */
export const plainText = () => safeText(z.string());

/** A person's name as a word of a file name: 'Pat O’Brien' is 'pat-o-brien'; `fallback` when none is left. */
export function fileNameWord(name: string, fallback: string): string {
  const word = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  return word || fallback;
}
