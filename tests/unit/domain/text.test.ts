import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainText, safeText, TEXT_MESSAGES, unsafeTextReason } from '../../../src/domain/text';

describe('text people type', () => {
  it('keeps ordinary text, accents, emoji, tabs and line breaks', () => {
    for (const text of ['Dr. Müller', 'Take 1 tablet\r\n\tat night', 'Café ☕ 👩‍⚕️', ''])
      expect(unsafeTextReason(text)).toBeNull();
  });

  it('refuses control characters with a message', () => {
    for (const text of ['a\u0000b', '\u0007', 'x\u001B[31m', '\u007F', '\u0085'])
      expect(unsafeTextReason(text)).toBe(TEXT_MESSAGES.controlCharacters);
  });

  it('refuses unpaired surrogates but keeps paired ones', () => {
    expect(unsafeTextReason('a\uD800b')).toBe(TEXT_MESSAGES.brokenCharacters);
    expect(unsafeTextReason('\uDC00')).toBe(TEXT_MESSAGES.brokenCharacters);
    expect(unsafeTextReason('end\uD83D')).toBe(TEXT_MESSAGES.brokenCharacters);
    expect(unsafeTextReason('\uD83D\uDE00')).toBeNull();
  });

  it('refines a schema after its own checks, keeping its type', () => {
    const notes = safeText(z.string().trim().max(5, 'too long'));
    expect(notes.parse('  ok  ')).toBe('ok');
    expect(notes.safeParse('toolong').error?.issues[0]?.message).toBe('too long');
    expect(notes.safeParse('a\u0000').error?.issues[0]?.message).toBe(TEXT_MESSAGES.controlCharacters);
    expect(plainText().safeParse('\uD800').success).toBe(false);
  });
});
