// A date of the medical history as a person types it, when they know only the year or the month: '2015',
// 'March 2015', 'Mar 2015', '3/2015', '2015-03', 'March 5, 2015', '5 March 2015', '3/5/2015' (month first,
// as in the US) and the stored forms YYYY, YYYY-MM and YYYY-MM-DD. What it cannot read is left as typed,
// for the field's check to name the problem.

const MONTHS: Record<string, number> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};

/** A month's number from its name or its first three letters ('Mar', 'sept.'), or null. */
function monthOf(word: string): number | null {
  const name = word.toLowerCase().replace(/\.$/, '');
  if (name.length < 3) return null;
  const found = Object.entries(MONTHS).find(([month]) => month.startsWith(name));
  return found ? found[1] : null;
}

const pad = (value: number) => String(value).padStart(2, '0');

function dated(year: string, month: number | null, day: number | null = null): string | null {
  if (!/^\d{4}$/.test(year) || month === null || month < 1 || month > 12) return null;
  if (day === null) return `${year}-${pad(month)}`;
  return day >= 1 && day <= 31 ? `${year}-${pad(month)}-${pad(day)}` : null;
}

/** The text in the stored form (YYYY, YYYY-MM or YYYY-MM-DD) when it reads as a date; else as typed. */
export function partialDateOfText(text: string): string {
  const typed = text.trim();
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(typed)) return typed;
  const words = typed.split(/[\s,]+/).filter(Boolean);
  let found: string | null = null;
  // 'March 2015', 'March 5 2015' (the comma gone), '5 March 2015'
  if (words.length === 2) found = dated(words[1] ?? '', monthOf(words[0] ?? ''));
  else if (words.length === 3) {
    const [first = '', second = '', year = ''] = words;
    found = monthOf(first)
      ? dated(year, monthOf(first), Number(second.replace(/(st|nd|rd|th)$/i, '')) || null)
      : dated(year, monthOf(second), Number(first.replace(/(st|nd|rd|th)$/i, '')) || null);
  } else {
    // '3/2015', '2015/03', '3/5/2015' (month first), with / . or - between
    const parts = typed.split(/[/.-]/);
    if (parts.length === 2 && /^\d{1,2}$/.test(parts[0] ?? ''))
      found = dated(parts[1] ?? '', Number(parts[0]));
    else if (parts.length === 2 && /^\d{4}$/.test(parts[0] ?? '') && /^\d{1,2}$/.test(parts[1] ?? ''))
      found = dated(parts[0] ?? '', Number(parts[1]));
    else if (parts.length === 3 && parts.every((part) => /^\d+$/.test(part)) && (parts[2] ?? '').length === 4)
      found = dated(parts[2] ?? '', Number(parts[0]), Number(parts[1]));
  }
  return found ?? typed;
}
