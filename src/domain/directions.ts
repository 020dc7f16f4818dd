// A prescription's directions ("sig": 'Take 1 tablet by mouth twice daily') read into the times of
// the day a dose is due, so the prescription form can suggest a schedule for the person to confirm. The reading
// is a suggestion, never a decision: whatever it cannot read with confidence it says so (understood: false) and
// the form asks the person to choose the times.
//
// Choices, so that the same words always give the same times:
// - Counts ('twice a day', BID) and moments ('at bedtime', 'with meals') give the times of DEFAULT_DOSE_TIMES.
//   Combinations are a union ('in the morning and at bedtime' -> 08:00, 22:00). When a count and moments
//   agree in number ('once daily at bedtime', 'QID AC & HS') the moments give the times; when they do not
//   ('twice daily with food', 'three times a day with a meal') the count does and the rest is a condition.
//   'Twice a day with meals' is breakfast and dinner, 'once a day with meals' breakfast.
// - Every N hours is around the clock from 06:00 (12- and 24-hourly from 08:00, like twice and once a day) and
//   wins over moments; 'while awake' keeps it between 06:00 and 22:00.
// - As needed with a count or moments ('twice daily as needed', 'at bedtime if needed for sleep') keeps the
//   times as suggested slots and says asNeeded: the schedule shows them as optional. As needed with an
//   interval ('every 6 hours as needed', 'every 4 to 6 hours as needed') has no fixed times: there the interval
//   is the shortest gap between doses, and reminders around the clock would wake people for doses they may
//   not need.
// - Not every day (weekly, every other day, 'on Mondays', once only), two different counts (a taper: 'twice
//   daily for 3 days then once daily'), an interval that does not divide the day, text over 500 characters or
//   with control characters: understood false, no times. Nothing here throws.
// - 'OD' is once daily as in British prescriptions, but only when nothing else gives the frequency: on eye drops
//   it is the right eye ('1 drop OD BID' is twice a day).

export type DirectionsReading = {
  /** 'HH:mm', sorted and unique; empty when there is no fixed time or the directions were not understood. */
  times: string[];
  asNeeded: boolean;
  understood: boolean;
  /** A short plain reading ('Twice a day', 'Every 8 hours', 'At bedtime', 'As needed'), '' when not understood. */
  summary: string;
};

export const DIRECTIONS_MAX_LENGTH = 500;

/** The times each kind of direction gives. */
export const DEFAULT_DOSE_TIMES = {
  /** 'N times a day' (and BID, TID, QID): spread over the waking day, first dose with breakfast. */
  timesADay: {
    1: ['08:00'],
    2: ['08:00', '20:00'],
    3: ['08:00', '14:00', '20:00'],
    4: ['08:00', '12:00', '16:00', '20:00'],
    5: ['08:00', '11:00', '14:00', '17:00', '20:00'],
    6: ['07:00', '10:00', '13:00', '16:00', '19:00', '22:00'],
  },
  /** 'Every N hours' (q8h): around the clock from 06:00, 12- and 24-hourly from 08:00. */
  everyHours: {
    2: [
      '00:00',
      '02:00',
      '04:00',
      '06:00',
      '08:00',
      '10:00',
      '12:00',
      '14:00',
      '16:00',
      '18:00',
      '20:00',
      '22:00',
    ],
    3: ['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00'],
    4: ['02:00', '06:00', '10:00', '14:00', '18:00', '22:00'],
    6: ['00:00', '06:00', '12:00', '18:00'],
    8: ['06:00', '14:00', '22:00'],
    12: ['08:00', '20:00'],
    24: ['08:00'],
  },
  /** 'Every N hours while awake': from the first time, every N hours, up to the last. */
  whileAwake: { first: '06:00', last: '22:00' },
  moments: {
    waking: '07:00',
    morning: '08:00',
    noon: '12:00',
    afternoon: '14:00',
    evening: '18:00',
    bedtime: '22:00',
    midnight: '00:00',
  },
  meals: {
    breakfast: { before: '07:30', with: '08:00', after: '08:30' },
    lunch: { before: '11:30', with: '12:00', after: '12:30' },
    dinner: { before: '17:30', with: '18:00', after: '18:30' },
  },
} as const;

const DOSE_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** A time of day as the schedule stores it: 'HH:mm' from 00:00 to 23:59. */
export function isDoseTime(value: string): boolean {
  return typeof value === 'string' && DOSE_TIME.test(value);
}

const NOT_UNDERSTOOD: DirectionsReading = { times: [], asNeeded: false, understood: false, summary: '' };

// The same characters src/domain/text.ts refuses (C0 but tab and line breaks, DEL, C1, lone surrogates),
// repeated here so that this module stays free of Zod for the pages and workers that only read directions.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  twenty: '20',
};

const COUNT_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3 };

const COUNT_NAMES: Record<number, string> = {
  1: 'Once a day',
  2: 'Twice a day',
  3: 'Three times a day',
  4: 'Four times a day',
  5: 'Five times a day',
  6: 'Six times a day',
};

type Meal = keyof typeof DEFAULT_DOSE_TIMES.meals;
type MealRelation = 'before' | 'with' | 'after';

/** Something that names times of the day: a moment, a meal, all meals or clock times. */
type Anchor = { label: string; times: string[]; allMeals?: MealRelation; meal?: Meal };
type Moment = keyof typeof DEFAULT_DOSE_TIMES.moments;

// 'Every morning before breakfast' is one dose, before breakfast: a meal says more than its moment of the day.
const MOMENT_OF_MEAL: Record<Meal, Moment> = { breakfast: 'morning', lunch: 'noon', dinner: 'evening' };

/** Lower case, abbreviations without their dots, number words as digits, punctuation as spaces. */
function normalise(directions: string): string {
  const words = directions
    .toLowerCase()
    .replace(/(?<![a-z])[a-z](?:\.[a-z])+\.?/g, (abbreviation) => abbreviation.replace(/\./g, '')) // b.i.d. -> bid
    .replace(/\bevening meal\b/g, 'dinner')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9:/.\-\s]/g, ' ')
    .replace(/(?<!\d)[.:-]|[.:-](?!\d)/g, ' ') // keep 0.5, 8:00 and 4-6
    .replace(/\b[a-z]+\b/g, (word) => NUMBER_WORDS[word] ?? word);
  return ` ${words.replace(/\s+/g, ' ').trim()} `;
}

/** Clock time from hours and minutes, or null when it is not one. */
function clockTime(hours: number, minutes: number): string | null {
  if (!Number.isInteger(hours) || hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function uniqueSorted(times: readonly string[]): string[] {
  return [...new Set(times)].sort();
}

function joinLabels(labels: string[]): string {
  if (labels.length <= 1) return labels[0] ?? '';
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Reads a prescription's directions into the times of day a dose is due. Never throws. */
export function doseTimesFromDirections(directions: string): DirectionsReading {
  if (typeof directions !== 'string' || directions.length > DIRECTIONS_MAX_LENGTH) return NOT_UNDERSTOOD;
  if (CONTROL_CHARACTER.test(directions) || LONE_SURROGATE.test(directions)) return NOT_UNDERSTOOD;

  let text = normalise(directions);
  /** Finds every match, hands it to `found`, and blanks it so that no later rule reads the same words. */
  const take = (pattern: RegExp, found: (match: (string | undefined)[]) => void = () => {}): boolean => {
    let any = false;
    text = text.replace(pattern, (...args: unknown[]) => {
      // The replacer's arguments: the match, its groups, then the offset and the whole text.
      found(args.slice(0, -2) as (string | undefined)[]);
      any = true;
      return ' ';
    });
    return any;
  };

  // How long to take it ('for 10 days', 'x 2 weeks') is not when: without it 'weeks' means weekly.
  take(
    /\b(?:for|x|during)\s*(?:the\s+)?(?:next\s+|first\s+)?(?:\d+|a|an)\s*(?:more\s+)?(?:days?|d|weeks?|wks?|months?|mos?)\b/g,
  );

  const asNeeded = take(
    /\b(?:prn|as needed|as required|if needed|when needed|if required|when required|as necessary|if necessary|when necessary)\b/g,
  );

  const notEveryDay =
    /\b(?:weekly|weeks?|wk|wks|wkly|monthly|months?|yearly|years?|annually|fortnight(?:ly)?|biweekly|qod|qow|qwk|qw|qmo|every other|alternate days?|alternating days|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|once only|1 times? only|single dose|stat)\b|\b(?:every|q)\s*(?:[2-9]|\d\d+)\s*(?:days|d)\b/;
  if (notEveryDay.test(text)) return { ...NOT_UNDERSTOOD, asNeeded };

  const anchors: Anchor[] = [];
  const clocks: string[] = [];
  let unreadable = false;

  // Clock times: '8 am', '9:30 p.m.', '21:00'.
  take(/\b(\d{1,2})(?::([0-5]\d))?\s*(am|pm)\b/g, (match) => {
    const hours = Number(match[1]);
    const time =
      hours >= 1 && hours <= 12
        ? clockTime((hours % 12) + (match[3] === 'pm' ? 12 : 0), Number(match[2] ?? 0))
        : null;
    if (time) clocks.push(time);
    else unreadable = true;
  });
  take(/\b(\d{1,2}):(\d{2})\b/g, (match) => {
    const time = clockTime(Number(match[1]), Number(match[2]));
    if (time) clocks.push(time);
    else unreadable = true;
  });
  if (clocks.length > 0) anchors.push({ label: `at ${joinLabels(uniqueSorted(clocks))}`, times: clocks });

  // Intervals: 'every 4 to 6 hours', 'q4-6h' (a range: never fixed times), 'every 8 hours', 'q 8 h'.
  const range = { found: false, from: 0, to: 0 };
  take(/\b(?:every|q|each)\s*(\d+)\s*(?:-|to|or)\s*(\d+)\s*(?:h|hr|hrs|hour|hours)\b/g, (match) => {
    Object.assign(range, { found: true, from: Number(match[1]), to: Number(match[2]) });
  });
  const intervals: number[] = [];
  take(/\b(?:every|q|each)\s*(\d+)\s*(?:h|hr|hrs|hour|hours)\b/g, (match) =>
    intervals.push(Number(match[1])),
  );
  if (take(/\bq\s*(?:h|hr|hour)\b|\bevery hour\b/g)) intervals.push(1);
  const whileAwake = take(/\b(?:while|when) (?:awake|up)\b|\bduring the day\b/g);
  if (intervals.some((hours) => hours > 24)) return { ...NOT_UNDERSTOOD, asNeeded };

  // Counts. Strong ones name the number of doses; weak ones ('daily', QD, OD) say once a day when nothing else
  // gives the number.
  const counts = new Set<number>();
  take(
    /\b(?:once|twice|thrice|(\d+)\s*(?:x|times?)|x\s*(\d+))\s*(?:(?:a|per|each|every|in a|in 1|\/)\s*)?(?:day|days|daily|d|24 hours|24 hrs|24h)\b/g,
    (match) => {
      const word = /^(?:once|twice|thrice)/.exec(match[0] ?? '')?.[0];
      counts.add(word ? (COUNT_WORDS[word] ?? 0) : Number(match[1] ?? match[2]));
    },
  );
  take(/\b(?:bid|bd)\b/g, () => counts.add(2));
  take(/\b(?:tid|tds)\b/g, () => counts.add(3));
  take(/\b(?:qid|qds)\b/g, () => counts.add(4));
  const daily = take(/\b(?:daily|every day|everyday|each day|a day|per day|\/day|qd|qday|q day)\b/g);
  const od = take(/\bod\b/g);

  // Meals, read word by word so that 'before breakfast and dinner' is before both.
  const meals = readMeals(text);
  text = meals.rest;
  anchors.push(...meals.anchors);

  // Moments of the day.
  const mealsTaken = new Set(meals.anchors.map((anchor) => anchor.meal));
  const moment = (pattern: RegExp, label: string, name: Moment) => {
    const said = take(pattern);
    const saidByAMeal = Object.entries(MOMENT_OF_MEAL).some(
      ([meal, of]) => of === name && mealsTaken.has(meal as Meal),
    );
    if (said && !saidByAMeal) anchors.push({ label, times: [DEFAULT_DOSE_TIMES.moments[name]] });
  };
  moment(
    /\b(?:on|upon|after|when) (?:waking|wakening|rising|getting up)\b|\bwhen you (?:wake|get) up\b/g,
    'on waking',
    'waking',
  );
  moment(/\b(?:in the )?(?:mornings?|am|qam|qm|mane)\b/g, 'in the morning', 'morning');
  moment(/\b(?:at )?(?:noon|midday|lunchtime)\b/g, 'at noon', 'noon');
  moment(/\b(?:in the )?afternoons?\b/g, 'in the afternoon', 'afternoon');
  moment(/\b(?:in the )?(?:evenings?|pm|qpm)\b/g, 'in the evening', 'evening');
  moment(/\b(?:at )?midnight\b/g, 'at midnight', 'midnight');
  moment(
    /\b(?:at |before |every |each )?(?:bedtime|bed time|bed|qhs|hs|nights?|nightly|nocte|qn|tonight)\b/g,
    'at bedtime',
    'bedtime',
  );

  if (unreadable || counts.size > 1) return { ...NOT_UNDERSTOOD, asNeeded };
  const intervalHours = [...new Set(intervals)];
  if (intervalHours.length > 1) return { ...NOT_UNDERSTOOD, asNeeded };
  const asNeededSuffix = asNeeded ? ', as needed' : '';

  const [hours] = intervalHours;
  if (hours !== undefined) {
    const intervalTimes = whileAwake ? timesWhileAwake(hours) : timesEveryHours(hours);
    const [count] = counts;
    if (!intervalTimes || (count !== undefined && count !== intervalTimes.length && !whileAwake)) {
      return { ...NOT_UNDERSTOOD, asNeeded };
    }
    const summary = `Every ${hours === 1 ? 'hour' : `${hours} hours`}${whileAwake ? ' while awake' : ''}`;
    if (asNeeded) return { times: [], asNeeded, understood: true, summary: `${summary}${asNeededSuffix}` };
    return { times: uniqueSorted(intervalTimes), asNeeded, understood: true, summary };
  }

  if (range.found) {
    // 'Every 4 to 6 hours' leaves the time to the person: as needed it is understood, with no fixed times.
    if (!asNeeded || range.from <= 0 || range.to <= range.from) return { ...NOT_UNDERSTOOD, asNeeded };
    return {
      times: [],
      asNeeded,
      understood: true,
      summary: `Every ${range.from} to ${range.to} hours, as needed`,
    };
  }

  const anchorTimes = uniqueSorted(anchors.flatMap((anchor) => anchor.times));
  const anchorSummary = () =>
    capitalise(
      joinLabels(
        [...new Map(anchors.map((anchor) => [anchor.label, anchor])).values()]
          .sort(
            (first, second) => minutesOf(first.times[0] ?? '00:00') - minutesOf(second.times[0] ?? '00:00'),
          )
          .map((anchor) => anchor.label),
      ),
    );

  const count = [...counts][0] ?? (daily || (od && anchors.length === 0) ? 1 : undefined);
  if (count !== undefined) {
    const countTimes = (DEFAULT_DOSE_TIMES.timesADay as Readonly<Record<number, readonly string[]>>)[count];
    if (!countTimes) return { ...NOT_UNDERSTOOD, asNeeded };
    const [onlyAnchor] = anchors;
    if (anchors.length === 1 && onlyAnchor?.allMeals && count <= 3) {
      // 'Three times a day with meals'; fewer doses than meals are with breakfast, then dinner.
      const [breakfast = '', lunch = '', dinner = ''] = onlyAnchor.times;
      const mealTimes =
        count === 1 ? [breakfast] : count === 2 ? [breakfast, dinner] : [breakfast, lunch, dinner];
      const summary = `${COUNT_NAMES[count]} ${onlyAnchor.label}${asNeededSuffix}`;
      return { times: uniqueSorted(mealTimes), asNeeded, understood: true, summary };
    }
    if (anchorTimes.length === count) {
      return {
        times: anchorTimes,
        asNeeded,
        understood: true,
        summary: `${anchorSummary()}${asNeededSuffix}`,
      };
    }
    return {
      times: [...countTimes],
      asNeeded,
      understood: true,
      summary: `${COUNT_NAMES[count]}${asNeededSuffix}`,
    };
  }

  if (anchorTimes.length > 0) {
    return { times: anchorTimes, asNeeded, understood: true, summary: `${anchorSummary()}${asNeededSuffix}` };
  }
  if (asNeeded) return { times: [], asNeeded, understood: true, summary: 'As needed' };
  return NOT_UNDERSTOOD;
}

function timesEveryHours(hours: number): readonly string[] | undefined {
  return (DEFAULT_DOSE_TIMES.everyHours as Readonly<Record<number, readonly string[]>>)[hours];
}

function timesWhileAwake(hours: number): string[] | undefined {
  if (hours < 1 || hours > 12) return undefined;
  const first = minutesOf(DEFAULT_DOSE_TIMES.whileAwake.first);
  const last = minutesOf(DEFAULT_DOSE_TIMES.whileAwake.last);
  const times: string[] = [];
  for (let minute = first; minute <= last; minute += hours * 60) {
    times.push(clockTime(Math.floor(minute / 60), minute % 60) ?? '');
  }
  return times;
}

const MEAL_WORDS: Record<string, Meal> = {
  breakfast: 'breakfast',
  lunch: 'lunch',
  dinner: 'dinner',
  supper: 'dinner',
};
const RELATION_WORDS: Record<string, MealRelation> = {
  before: 'before',
  ac: 'before',
  with: 'with',
  at: 'with',
  during: 'with',
  after: 'after',
  pc: 'after',
  following: 'after',
};

/** Meal anchors ('before breakfast and dinner', 'with each meal', AC, ACHS) and the text without them. */
function readMeals(text: string): { anchors: Anchor[]; rest: string } {
  const anchors: Anchor[] = [];
  const words = text
    .replace(/\bachs\b/g, 'ac hs')
    .trim()
    .split(' ');
  const kept: string[] = [];
  let relation: MealRelation = 'with';
  words.forEach((word, index) => {
    const next = words[index + 1];
    const previous = words[index - 1];
    const meal = MEAL_WORDS[word];
    const allMeals =
      word === 'meals' ||
      word === 'mealtimes' ||
      (word === 'meal' && (previous === 'each' || previous === 'every' || previous === 'all'));
    const wordRelation = RELATION_WORDS[word];
    if (wordRelation) {
      relation = wordRelation;
      // AC and PC stand alone for 'before meals' and 'after meals'.
      const nextIsMeal =
        next !== undefined &&
        (MEAL_WORDS[next] !== undefined || /^(?:meals?|mealtimes|each|every|all|the|your)$/.test(next));
      if ((word === 'ac' || word === 'pc') && !nextIsMeal) anchors.push(allMealsAnchor(wordRelation));
      else kept.push(word); // 'at' stays for 'at bedtime'
      return;
    }
    if (meal) {
      const times = DEFAULT_DOSE_TIMES.meals[meal];
      anchors.push({ label: `${relation} ${word}`, times: [times[relation]], meal });
      return;
    }
    if (allMeals) {
      anchors.push(allMealsAnchor(relation));
      return;
    }
    kept.push(word);
  });
  return { anchors, rest: ` ${kept.join(' ')} ` };
}

function allMealsAnchor(relation: MealRelation): Anchor {
  const { breakfast, lunch, dinner } = DEFAULT_DOSE_TIMES.meals;
  return {
    label: `${relation} meals`,
    times: [breakfast[relation], lunch[relation], dinner[relation]],
    allMeals: relation,
  };
}
