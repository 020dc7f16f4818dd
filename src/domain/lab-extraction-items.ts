import { looksLikeUnit } from './lab-analytes';

// What one cell's text holds, read by shape into items: an interval ('70-99', '70 - 99', '(135 - 146)'), a
// bound ('<200', '> OR = 40'), a number (with a flag or a unit stuck to it: '250H', '5.4mg/dL'), a result
// in words ('Negative', 'Trace', '2+'), a flag, a unit; anything else is a word. Two misreads OCR makes in
// numbers are mended and marked (the row is then reviewed): a colon for a decimal point ('1:18') or for a
// dash ('1.5:12.5'), and a lost dash ('2.34.2'); O and l in digits are read as 0 and 1. The rows are made
// of them in lab-extraction-row.ts.

export type PrintedFlag = 'H' | 'L' | 'A' | '';

export type ItemKind = 'interval' | 'bound' | 'number' | 'words-result' | 'flag' | 'unit' | 'word';
export type Item = { kind: ItemKind; text: string; flag?: PrintedFlag; unit?: string; mended?: boolean };

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+`;
const INTERVAL = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})(?![\d.,])`, 'i');
const BOUND = new RegExp(String.raw`^(<=|>=|≤|≥|=<|=>|<|>)\s*(?:or\s*=\s*)?(${NUMBER})(?![\d.,])`, 'i');
const NUMBER_TOKEN = new RegExp(String.raw`^(${NUMBER})(\S*)`);
const WORDS_RESULT =
  /^(?:not detected|none seen|non[- ]?reactive|pale yellow|light yellow|dark yellow|slightly cloudy|slightly hazy|negative|positive|neg|pos|trace|detected|reactive|clear|cloudy|hazy|turbid|yellow|straw|amber|colorless|few|rare|moderate|many|small|large|normal|[1-4]\+)(?![\w+])/i;
const FLAG =
  /^(?:HIGH|LOW|High|Low|HH|LL|H|L|A|\*{1,2}|\((?:HH|LL|H|L|A|HIGH|LOW|High|Low|ABN|Abnormal|ABNORMAL)\)|ABN|Abnormal|ABNORMAL|CRIT)(?![\w*])/;

export function flagOf(text: string): PrintedFlag {
  const letters = text.replace(/[()\s]/g, '').toUpperCase();
  if (/^(?:H|HH|HIGH)$/.test(letters)) return 'H';
  if (/^(?:L|LL|LOW)$/.test(letters)) return 'L';
  return letters.length > 0 ? 'A' : '';
}

// O read for 0 and l or I for 1 inside what is otherwise a number ('1O5', 'l.2', '0.5-l.2').
function repairDigits(token: string): string {
  if (!/\d/.test(token) || !/^[<>=]*[\dOolI.,\-–]+(?:HH|LL|H|L|\*)?$/.test(token)) return token;
  const flagMatch = /(HH|LL|H|L|\*)$/.exec(token);
  const flag = flagMatch?.[1] ?? '';
  const body = flag ? token.slice(0, -flag.length) : token;
  return body.replace(/[Oo]/g, '0').replace(/[lI]/g, '1') + flag;
}

const dropThousands = (number: string) =>
  /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(number) ? number.replace(/,/g, '') : number;

/** The items one cell's text holds, in order. */
export function scanItems(text: string): Item[] {
  // Specks a photo adds ('~~ 123', '| 4.5') are no part of any field.
  let rest = text
    // A range in brackets with spaces in it ('(135 - 146)', '( > 60 )'): the brackets are no part of it.
    .replace(/[([]\s*([<>≤≥=]*\s*[\d.,]+(?:\s*(?:-|–|to)\s*[\d.,]+)?)\s*[)\]]/gi, ' $1 ')
    .split(/\s+/)
    .filter((token) => !/^[~_|'"`°•·,.:;]+$/.test(token))
    // A range in brackets ('(70-99)', '[<200]'): the brackets are no part of it.
    .map((token) => token.replace(/^[([]([<>≤≥=]*\s*[\d.,]+(?:\s*[-–]\s*[\d.,]+)?)[)\]]$/, '$1'))
    .map(repairDigits)
    .join(' ')
    .trim();
  const items: Item[] = [];
  while (rest.length > 0) {
    const item = nextItem(rest);
    items.push(item.item);
    rest = rest.slice(item.length).trim();
  }
  return items;
}

function nextItem(rest: string): { item: Item; length: number } {
  // '2.34.2': an interval whose dash OCR lost; both bounds have the last one's decimals.
  const dashless = /^(\d+)\.(\d+)\.(\d+)(?![\d.])/.exec(rest);
  if (dashless && (dashless[2] ?? '').length > (dashless[3] ?? '').length) {
    const [, whole = '', middle = '', last = ''] = dashless;
    const text = `${whole}.${middle.slice(0, last.length)}-${middle.slice(last.length)}.${last}`;
    return { item: { kind: 'interval', text, mended: true }, length: dashless[0].length };
  }
  // '1.5:12.5': a dash read as a colon between two decimals.
  const colonInterval = /^(\d+\.\d+):(\d+\.\d+)(?![\d.])/.exec(rest);
  if (colonInterval) {
    const text = `${colonInterval[1]}-${colonInterval[2]}`;
    return { item: { kind: 'interval', text, mended: true }, length: colonInterval[0].length };
  }
  // '1:18': OCR's colon for a decimal point.
  const colon = /^(\d{1,3}):(\d{1,3})(?![\d:])/.exec(rest);
  if (colon)
    return {
      item: { kind: 'number', text: `${colon[1]}.${colon[2]}`, mended: true },
      length: colon[0].length,
    };
  const interval = INTERVAL.exec(rest);
  if (interval)
    return { item: { kind: 'interval', text: interval[0].replace(/\s+/g, ' ') }, length: interval[0].length };
  const bound = BOUND.exec(rest);
  if (bound) {
    const sign = (bound[1] ?? '').replace('=<', '<=').replace('=>', '>=');
    const orEqual = /or\s*=/i.test(bound[0]) ? '=' : '';
    return {
      item: { kind: 'bound', text: `${sign}${orEqual}${dropThousands(bound[2] ?? '')}` },
      length: bound[0].length,
    };
  }
  const words = WORDS_RESULT.exec(rest);
  if (words) return { item: { kind: 'words-result', text: words[0] }, length: words[0].length };
  const number = NUMBER_TOKEN.exec(rest);
  if (number) {
    const value = dropThousands(number[1] ?? '');
    const suffix = number[2] ?? '';
    if (suffix === '') return { item: { kind: 'number', text: value }, length: number[0].length };
    if (FLAG.test(suffix) && FLAG.exec(suffix)?.[0] === suffix) {
      return { item: { kind: 'number', text: value, flag: flagOf(suffix) }, length: number[0].length };
    }
    if (looksLikeUnit(suffix))
      return { item: { kind: 'number', text: value, unit: suffix }, length: number[0].length };
  }
  const flag = FLAG.exec(rest);
  if (flag) return { item: { kind: 'flag', text: flag[0], flag: flagOf(flag[0]) }, length: flag[0].length };
  const tokens = rest.split(' ');
  const two = tokens.slice(0, 2).join(' ');
  if (tokens.length > 1 && looksLikeUnit(two))
    return { item: { kind: 'unit', text: two }, length: two.length };
  const first = tokens[0] ?? rest;
  if (looksLikeUnit(first)) return { item: { kind: 'unit', text: first }, length: first.length };
  return { item: { kind: 'word', text: first }, length: first.length };
}

const VALUE_KINDS: ItemKind[] = ['number', 'bound', 'words-result'];
/** A number, a bound or a result in words: what a result cell holds. */
export const isValueItem = (item: Item | undefined) => item !== undefined && VALUE_KINDS.includes(item.kind);
