import { describe, expect, it } from 'vitest';
import { isPlausibleEmail, spokenEmailToText } from '../../../src/domain/spoken-email';

const HEARD: [string, string][] = [
  // The rules of src/domain/README.md.
  ['rosa dot diaz at example dot com', 'rosa.diaz@example.com'],
  ['john attherate mail dot org', 'john@mail.org'],
  ['Anna B At Clinic Dot Net', 'annab@clinic.net'],
  ['mary jane at example dot com', 'maryjane@example.com'],
  // Other ways to say '@'.
  ['raj at the rate gmail dot com', 'raj@gmail.com'],
  ['raj at-the-rate gmail dot com', 'raj@gmail.com'],
  ['priya at rate yahoo dot in', 'priya@yahoo.in'],
  ['Mary at sign Yahoo dot com', 'mary@yahoo.com'],
  ['leo at symbol outlook dot com', 'leo@outlook.com'],
  ['JOHN ATTHERATE MAIL DOT ORG', 'john@mail.org'],
  // Symbols said as words.
  ['john underscore smith at gmail dot com', 'john_smith@gmail.com'],
  ['mary dash jane at mail dot com', 'mary-jane@mail.com'],
  ['mary hyphen jane at mail dot co dot uk', 'mary-jane@mail.co.uk'],
  ['ann plus health at gmail dot com', 'ann+health@gmail.com'],
  ['ann at gmail dotcom', 'ann@gmail.com'],
  ['first dot middle dot last at sub dot example dot org', 'first.middle.last@sub.example.org'],
  // What engines write themselves: symbols, capitals, a closing period, commas.
  ['john.smith@Gmail.com.', 'john.smith@gmail.com'],
  ['John.Smith@GMAIL.COM', 'john.smith@gmail.com'],
  ['john smith @ gmail.com', 'johnsmith@gmail.com'],
  ['john at Gmail.com', 'john@gmail.com'],
  ['Mary at sign Yahoo dot com.', 'mary@yahoo.com'],
  ['rosa dot diaz at example dot com?', 'rosa.diaz@example.com'],
  ['rosa, at example dot com', 'rosa@example.com'],
  ['  rosa   at   example   dot   com  ', 'rosa@example.com'],
  ['jo at example dot com. ', 'jo@example.com'],
  ['john at gmail. Com.', 'john@gmail.com'],
  // Digits: written as the engine wrote them; words for digits stay words.
  ['john 123 at gmail dot com', 'john123@gmail.com'],
  ['john one two three at gmail dot com', 'johnonetwothree@gmail.com'],
  // A symbol word said first or last has nothing to join, so it stays a word (part of a name).
  ['Dot Cotton at mail dot com', 'dotcotton@mail.com'],
  ['plus at mail dot com', 'plus@mail.com'],
  ['dash at mail dot com', 'dash@mail.com'],
  ['at gmail dot com', 'atgmail.com'],
  ['john at gmail dot', 'john@gmaildot'],
  ['', ''],
];

describe('spokenEmailToText', () => {
  it.each(HEARD)('writes %j as %j', (spoken, expected) => {
    expect(spokenEmailToText(spoken)).toBe(expected);
  });

  it('leaves what is not an address for isPlausibleEmail to refuse', () => {
    for (const spoken of ['john at at gmail dot com', 'at gmail dot com', 'john at gmail', 'meet me'])
      expect(isPlausibleEmail(spokenEmailToText(spoken))).toBe(false);
  });
});

describe('isPlausibleEmail', () => {
  it('accepts one @ with a dotted domain', () => {
    for (const text of ['a@b.co', 'john.smith@gmail.com', 'ann+health@mail.co.uk', 'mary-jane_x@x-y.io'])
      expect(isPlausibleEmail(text)).toBe(true);
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      'john',
      'john@gmail',
      '@gmail.com',
      'john@@gmail.com',
      'john@a@gmail.com',
      'john@.com',
      'john@gmail.',
      'john@gmail..com',
      '.john@gmail.com',
      'john.@gmail.com',
      'jo..hn@gmail.com',
      'john smith@gmail.com',
    ])
      expect(isPlausibleEmail(text)).toBe(false);
  });
});
