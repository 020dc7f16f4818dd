import type { Cell, PageLines } from './lab-extraction-layout';

// The ordering doctor and the report's date, found by their labels ('Ordering Physician:', 'Collected:')
// with the value after the label in the same cell, in the next cell, or on the line below.
//
// Choices:
// - The collection date wins over the date of service, which wins over the report's and the print date:
//   the collection date is when the values were true. A date of birth is never the report's date, nor is a
//   date after today. With no labelled date, the date the page prints most often is taken.
// - Dates are read as printed: MM/DD/YYYY (US order, as American labs print) unless the first number cannot
//   be a month; YYYY-MM-DD; 'Mar 14, 2026', '14-Mar-2026', '14 March 2026'. OCR's O and l in digits are read.
// - The doctor's name comes without title or credentials ('Dr. Jane Smith, MD' is 'Jane Smith'); a name
//   written 'SMITH, JANE' is turned around and put in title case.

const DOCTOR_LABELS: RegExp[] = [
  /\bordering\s+(?:physician|provider|doctor|clinician)\b/i,
  /\breferring\s+(?:physician|provider|doctor)\b/i,
  /\bordered\s+by\b/i,
  /\b(?:requested|requisitioned|authorized|submitted|referred)\s+by\b/i,
  /\b(?:ordering|requesting|attending|treating|authorizing|submitting)\s+(?:md|dr|physician|provider|clinician)\b/i,
  // 'Ordering:' alone, as some portals print it.
  /\bordering(?=\s*:)/i,
  /\b(?:physician|doctor|provider)(?:\s+name)?\b/i,
];
/** The labels above that name the ordering doctor outright: their name may follow with no colon. */
const STRONG_DOCTOR_LABELS = DOCTOR_LABELS.length - 1;
/** Other doctors a report names, never the one who ordered the tests. */
const NOT_THE_ORDERING_DOCTOR =
  /\b(?:cc|copy|copies|copied|director|patholog\w*|verified|reviewed|released|performed|reading|resulting|medical\s+director|lab(?:oratory)?)\b/i;
const DATE_LABELS: RegExp[] = [
  /\b(?:collection(?=\s*:)|coll\.?\s+date|(?:sample|specimen)\s+date|date\s+of\s+specimen|obtained|collection\s+date|date\s+collected|specimen\s+collected|collected(?:\s+on)?|(?:sample|specimen)\s+(?:taken|drawn|collected)|date\s+of\s+collection|collection\s+(?:date\s*\/\s*)?time|drawn|date\s+drawn)\b/i,
  /\b(?:date\s+of\s+service|service\s+date|dos)\b/i,
  /\b(?:received|date\s+received)\b/i,
  /\b(?:reported|report\s+date|date\s+reported|date\s+of\s+report|resulted|final\s+report\s+date)\b/i,
  /\b(?:printed|print\s+date|date\s+printed)\b/i,
];
/** DATE_LABELS from this one on name when the lab received, reported or printed, not the collection. */
const RECEIVED_RANK = 2;
const BIRTH_LABEL = /\b(?:dob|d\.o\.b|date\s+of\s+birth|birth\s*date|born)\b/i;
const OTHER_LABELS =
  /\b(?:patient(?:\s+name)?|name|age|sex|gender|mrn|account(?:\s+(?:number|no\.?))?|acct|id|phone|tel|fax|npi|address|specimen(?:\s+id)?|accession(?:\s+(?:number|no\.?))?|lab|page|status|time|clinic|location|facility)\b/i;
// A label inside a value's text, where that value ends ('Jane Smith MD  Collected: 03/14/2026').
const ANY_LABEL = new RegExp(
  String.raw`(?:${[...DOCTOR_LABELS, ...DATE_LABELS, BIRTH_LABEL, OTHER_LABELS].map((label) => label.source).join('|')})\s*[:#]`,
  'i',
);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?`;

const pad = (n: number) => String(n).padStart(2, '0');
function isoDate(year: number, month: number, day: number): string | null {
  if (year < 100) year += year < 70 ? 2000 : 1900;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const repair = (text: string) =>
  text.replace(/[\dOolI]+(?=[/\-.])|(?<=[/\-.])[\dOolI]+/g, (part) =>
    /\d/.test(part) ? part.replace(/[Oo]/g, '0').replace(/[lI]/g, '1') : part,
  );

/** Every date a text holds, as YYYY-MM-DD, in order. */
export function datesIn(text: string): string[] {
  const source = repair(text);
  const found: { at: number; date: string }[] = [];
  const add = (at: number, date: string | null) => {
    if (date) found.push({ at, date });
  };
  for (const m of source.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) {
    add(m.index, isoDate(Number(m[1]), Number(m[2]), Number(m[3])));
  }
  for (const m of source.matchAll(/(?<![\d-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?![\d-])/g)) {
    const [first, second, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
    add(m.index, first > 12 ? isoDate(year, second, first) : isoDate(year, first, second));
  }
  const monthIndex = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
  for (const m of source.matchAll(
    new RegExp(String.raw`\b${MONTH_WORD}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'gi'),
  )) {
    add(m.index, isoDate(Number(m[3]), monthIndex(m[1] ?? ''), Number(m[2])));
  }
  for (const m of source.matchAll(
    new RegExp(String.raw`\b(\d{1,2})[-\s]${MONTH_WORD}[-\s,]+(\d{4}|\d{2})\b`, 'gi'),
  )) {
    add(m.index, isoDate(Number(m[3]), monthIndex(m[2] ?? ''), Number(m[1])));
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.date);
}

type Labelled = {
  rank: number;
  after: string;
  cell: Cell;
  nextCell: Cell | undefined;
  below: Cell | undefined;
};

// Each cell holding one of the labels, with what follows it: the rest of the cell, the next cell, the cell
// below. A label counts when it starts the cell and ends with a colon or the cell ('Physician' in a
// sentence is not a label).
function labelled(pages: PageLines[], labels: RegExp[], bareRanks = 0): Labelled[] {
  const found: Labelled[] = [];
  for (const page of pages) {
    page.lines.forEach((line, lineIndex) => {
      line.cells.forEach((cell, cellIndex) => {
        const rank = labels.findIndex((label) => label.test(cell.text));
        if (rank < 0) return;
        const match = (labels[rank] as RegExp).exec(cell.text) as RegExpExecArray;
        const before = cell.text.slice(0, match.index).trim();
        const rest = cell.text.slice(match.index + match[0].length);
        if (before.split(/\s+/).length > 2 || /:/.test(before)) return;
        const bare = rank < bareRanks && /^\s+[A-Z]/.test(rest);
        // OCR reads a photo's colon as a full stop, a semicolon or a comma too ('Ordered by. Dr. Keller').
        if (!bare && !/^\s*(?:\/\s*time\s*)?[:#;.,-]/i.test(rest) && rest.trim() && !datesIn(rest).length)
          return;
        const after = rest.replace(/^\s*(?:\/\s*time\s*)?[:#;,.\-–]*/i, '').trim();
        const nextLine = page.lines[lineIndex + 1];
        const below =
          nextLine && nextLine.yc - line.yc < 2.5 * page.wordHeight
            ? nextLine.cells.find(
                (candidate) => candidate.x0 < cell.x1 && candidate.x1 > cell.x0 - page.wordHeight,
              )
            : undefined;
        found.push({ rank, after, cell, nextCell: line.cells[cellIndex + 1], below });
      });
    });
  }
  return found.sort((a, b) => a.rank - b.rank);
}

// What a label's neighbour says, when it is not another label ('DOB: 01/02/1960' below 'Collected:').
const valueText = (text: string) => (ANY_LABEL.exec(text)?.index === 0 ? '' : beforeNextLabel(text));
const candidatesOf = (entry: Labelled) => [
  beforeNextLabel(entry.after),
  ...(entry.after ? [] : [valueText(entry.nextCell?.text ?? ''), valueText(entry.below?.text ?? '')]),
];

/**
 * The report's date: a labelled collection or service date, else `resultDate` (a cumulative table's
 * current column), else another labelled date, else the date the pages print most often.
 */
export function findReportDate(
  pages: PageLines[],
  today?: string,
  resultDate?: string | null,
): string | null {
  const usable = (date: string) => !today || date <= today;
  for (const entry of labelled(pages, DATE_LABELS)) {
    if (BIRTH_LABEL.test(entry.cell.text.split(':')[0] ?? '')) continue;
    // A received, reported or printed date is not when the current results were drawn; a cumulative
    // table's current column says that.
    if (entry.rank >= RECEIVED_RANK && resultDate && usable(resultDate)) return resultDate;
    for (const text of candidatesOf(entry)) {
      const date = datesIn(text).find(usable);
      if (date) return date;
    }
  }
  if (resultDate && usable(resultDate)) return resultDate;
  const counts = new Map<string, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      for (const cell of line.cells) {
        if (BIRTH_LABEL.test(cell.text)) continue;
        for (const date of datesIn(cell.text).filter(usable)) counts.set(date, (counts.get(date) ?? 0) + 1);
      }
    }
  }
  let best: string | null = null;
  for (const [date, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = date;
  return best;
}

// Any other field's label after a value ('Dr Leila Haddad Authorised by: ...', 'Date of birth:'): a
// capitalised word and up to two small ones, then a colon. A name holds no colon, and a time's colon has
// digits before it.
const SOME_LABEL = /\s[A-Z][A-Za-z.'-]*(?:\s+[a-z][A-Za-z.'-]*){0,2}\s*:(?:\s|$)/;

const beforeNextLabel = (text: string) => {
  const next = [ANY_LABEL.exec(text), SOME_LABEL.exec(text)]
    .filter((found): found is RegExpExecArray => found !== null && found.index > 0)
    .sort((a, b) => a.index - b.index)[0];
  return next ? text.slice(0, next.index) : text;
};

const CREDENTIALS =
  /\b(?:M\.?D|D\.?O|N\.?P|P\.?A(?:-C)?|Ph\.?D|MBBS|FACP|FACC|FAAP|RN|APRN|FNP(?:-[BC]{1,2})?|DNP|ARNP|CNP|MSN|DPM|DC|MPH)\.?(?=$|[\s,;])/g;

const ORGANISATION =
  /\b(?:labs?|laborator(?:y|ies)|diagnostics?|clinic|hospital|cent(?:er|re)|medical|health|healthcare|inc|llc|group|associates|services|pathology)\b/i;

/** A doctor's name as people write it, from a printed name with title and credentials, or null. */
export function cleanDoctorName(printed: string): string | null {
  let name = printed
    .replace(/\b(?:NPI|ID|Phone|Tel|Fax)\b.*$/i, '')
    .replace(/\([^)]*\)?/g, ' ')
    .replace(/^\s*(?:Dr\.?|Doctor)\s+/i, '')
    .replace(CREDENTIALS, ' ')
    .replace(/[,;\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const turned = /^([A-Za-z'-]+),\s*([A-Za-z'.\- ]+)$/.exec(name);
  if (turned) name = `${turned[2]} ${turned[1]}`.trim();
  name = name.replace(/,/g, '').trim();
  if (!/^[A-Za-z][A-Za-z'.\- ]{1,60}$/.test(name) || !/[a-z]{2}/i.test(name)) return null;
  // 'Provider: Quest Diagnostics' names the laboratory, not a doctor.
  if (name.split(' ').length > 5 || ORGANISATION.test(name)) return null;
  if (name === name.toUpperCase()) {
    name = name
      .toLowerCase()
      .replace(/(^|[\s'-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
  }
  return name;
}

export function findDoctor(pages: PageLines[]): string | null {
  for (const entry of labelled(pages, DOCTOR_LABELS, STRONG_DOCTOR_LABELS)) {
    // 'CC Physician:', 'Pathologist', 'Laboratory Director Physician': another doctor of the report.
    const label = entry.cell.text.slice(0, entry.cell.text.length - entry.after.length);
    if (NOT_THE_ORDERING_DOCTOR.test(label)) continue;
    for (const text of candidatesOf(entry)) {
      const name = text ? cleanDoctorName(text) : null;
      if (name) return name;
    }
  }
  return null;
}
