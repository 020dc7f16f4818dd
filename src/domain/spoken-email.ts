/**
 * Voice input for email fields (README.md beside this file): ' dot ' becomes '.', ' at ' or ' attherate '
 * become '@', and spaces are removed. Beyond that, what en-US speech engines really write down:
 * - '@' said as 'at the rate', 'at rate', 'at sign', 'at symbol' (and 'at-the-rate');
 * - 'underscore' -> '_', 'dash' / 'hyphen' -> '-', 'plus' -> '+', 'dotcom' -> '.com';
 * - symbols the engine already wrote ('@', '.'), spaces around them, commas, and the period (or '?',
 *   '!') an engine adds at the end; capitals ('Gmail.com'): the result is lower case, as the
 *   helper always was (mail providers ignore case in practice).
 *
 * A symbol word becomes its symbol only between two other words: said first or last it stays a word,
 * so 'Dot Cotton at mail dot com' is 'dotcotton@mail.com'. Digits said as words are NOT turned into
 * digits ('john one two' stays 'johnonetwo'): engines already write digits when digits are said, and a
 * name such as 'one' or 'ten' could not be told apart. The result may still not be an address (two
 * '@', no domain): check it with isPlausibleEmail and let the person try again.
 */

// Longest phrases first, so 'at the rate' is read before 'at'.
const AT_PHRASES: string[][] = [
  ['at', 'the', 'rate'],
  ['at', 'rate'],
  ['at', 'sign'],
  ['at', 'symbol'],
  ['attherate'],
  ['at'],
];

const SYMBOL_WORDS: Record<string, string> = {
  dot: '.',
  underscore: '_',
  dash: '-',
  hyphen: '-',
  plus: '+',
};

function phraseAt(words: string[], start: number): number {
  for (const phrase of AT_PHRASES)
    if (phrase.every((word, offset) => words[start + offset] === word)) return phrase.length;
  return 0;
}

export function spokenEmailToText(spoken: string): string {
  const words = spoken
    .toLowerCase()
    .replace(/,/g, ' ')
    .replace(/[.?!\s]+$/, '')
    .replace(/\bat-the-rate\b/g, 'attherate')
    .replace(/\bdotcom\b/g, 'dot com')
    .split(/\s+/)
    .filter((word) => word !== '');
  const parts: string[] = [];
  for (let index = 0; index < words.length;) {
    const word = words[index] ?? '';
    const atLength = phraseAt(words, index);
    const between = index > 0 && index + Math.max(atLength, 1) < words.length;
    if (atLength > 0 && between) {
      parts.push('@');
      index += atLength;
      continue;
    }
    const symbol = SYMBOL_WORDS[word];
    parts.push(symbol !== undefined && between ? symbol : word);
    index += 1;
  }
  // A final period the engine wrote right after the address ('gmail.com.') once the spaces are gone.
  return parts.join('').replace(/\.+$/, '');
}

/** One '@', something before it, and a domain with a dot between non-empty labels: worth saving. */
export function isPlausibleEmail(text: string): boolean {
  return /^[^\s@.]+(?:\.[^\s@.]+)*@[^\s@.]+(?:\.[^\s@.]+)+$/.test(text);
}
