// Every date and time the app shows is written here, one format per kind (README.md beside this file):
//
//   date       'Thu, Apr 01, 2027'                    formatDate
//   date-time  'Thu, Apr 01, 2027, 9:00 AM'            formatDateTime
//   time       '9:00 AM'                               formatTime
//   day        'Apr 1'                                 formatDay (chart axes and short lists of days)
//   lab date   '2027/04/01'                            formatSlashedDate (the lab report screen's own)
//
// The date's words are English whatever the device's language, as every other text of the app is. The
// time follows the viewer's locale: 12-hour with AM/PM where the locale reads it so (en-US), 24-hour
// where it does not (en-GB, de-DE). A moment may be shown in a zone of its own (an appointment happens
// where it happens): the date and time are that zone's, and when the viewer's device reads another time at
// that moment, the zone is named ('10:15 AM ET'). Dates stored or sent are 'YYYY-MM-DD' (clock.ts).
//
// No Luxon here, so the first screens load without it; Intl is asked only for what only it knows (the
// locale's clock, another zone's wall time, a zone's short name), once per locale or zone.

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Where and for whom a moment is shown. Every field is optional: the device's zone and locale. */
export type ShownIn = {
  /**
   * The zone the moment belongs to: an IANA name ('America/New_York') or a fixed offset ('UTC-07:00').
   * The device's zone when left out or null.
   */
  zone?: string | null;
  /** The viewer's zone (their device's): a moment whose zone reads another time there is labelled. */
  viewerZone?: string;
  /** The viewer's locale ('en-US', 'en-GB'): whether the time is 12- or 24-hour, and the zone's name. */
  locale?: string;
};

/** The zone this device's clock is set to (an IANA name), 'UTC' when the platform does not say. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const twelveHourLocales = new Map<string, boolean>();

/** Whether the locale reads the time on a 12-hour clock (en-US: 9:00 AM) rather than 24 (en-GB: 09:00). */
export function usesTwelveHourClock(locale?: string): boolean {
  const key = locale ?? '';
  let twelve = twelveHourLocales.get(key);
  if (twelve === undefined) {
    const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
    twelve = cycle === 'h11' || cycle === 'h12';
    twelveHourLocales.set(key, twelve);
  }
  return twelve;
}

type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Minutes east of UTC at that moment in that zone. */
  offset: number;
};

const FIXED_OFFSET = /^UTC([+-])(\d{2}):(\d{2})$/;
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  return format;
}

function utcWallClock(date: Date, offset: number): WallClock {
  const shifted = new Date(date.getTime() + offset * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    offset,
  };
}

/** The wall clock of `zone` (the device's when undefined) at the instant `date`. */
function wallClockIn(date: Date, zone: string | undefined): WallClock {
  if (zone === undefined)
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
      offset: -date.getTimezoneOffset(),
    };
  const fixed = FIXED_OFFSET.exec(zone);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3]);
    return utcWallClock(date, fixed[1] === '-' ? -minutes : minutes);
  }
  const parts: Record<string, number> = {};
  for (const part of zoneFormat(zone).formatToParts(date)) parts[part.type] = Number(part.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  return { year, month, day, hour, minute, second, offset };
}

/** A zone's name as the viewer's locale says it briefly: 'ET', 'PT', 'CEST', 'GMT+2', 'GMT+5:30'. */
export function zoneLabel(zone: string, at: Date, locale?: string): string {
  const fixed = FIXED_OFFSET.exec(zone);
  if (fixed) {
    const minutes = fixed[3] === '00' ? '' : `:${fixed[3]}`;
    return `GMT${fixed[1]}${Number(fixed[2])}${minutes}`;
  }
  const nameOf = (style: 'shortGeneric' | 'short') => {
    try {
      return new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')?.value;
    } catch {
      return undefined; // a platform without 'shortGeneric'
    }
  };
  // The generic name ('ET', true all year) when the locale has a short one; otherwise the short name
  // (an abbreviation, 'CEST', or the offset, 'GMT+2'), never a long 'Germany Time' in a line of text.
  const generic = nameOf('shortGeneric');
  if (generic && /^[A-Z]{1,5}$/.test(generic)) return generic;
  return nameOf('short') ?? zone;
}

/**
 * A stored moment as a Date and whether it is a calendar date alone: YYYY-MM-DD is that day (no zone to
 * move it, at the device's midnight, as Luxon's fromISO reads it), anything else an ISO instant. Null
 * when not a date.
 */
function momentOf(iso: string): { date: Date; dateOnly: boolean } | null {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const date = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : /^\d{4}-\d{2}-\d{2}T/.test(iso)
      ? new Date(iso)
      : null;
  return date && !Number.isNaN(date.getTime()) ? { date, dateOnly: Boolean(dateOnly) } : null;
}

function dateText(clock: WallClock): string {
  const weekday = WEEKDAYS[new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay()];
  return `${weekday}, ${MONTHS[clock.month - 1]} ${twoDigits(clock.day)}, ${clock.year}`;
}

function timeText(clock: WallClock, locale: string | undefined, seconds = false): string {
  const tail = seconds ? `:${twoDigits(clock.second)}` : '';
  if (!usesTwelveHourClock(locale)) return `${twoDigits(clock.hour)}:${twoDigits(clock.minute)}${tail}`;
  const hour = clock.hour % 12 === 0 ? 12 : clock.hour % 12;
  return `${hour}:${twoDigits(clock.minute)}${tail} ${clock.hour < 12 ? 'AM' : 'PM'}`;
}

/** The moment's wall clock in its zone, and that zone's label when the viewer's clock reads otherwise. */
function placed(date: Date, shown: ShownIn): { clock: WallClock; label: string } {
  const zone = shown.zone ?? undefined;
  const clock = wallClockIn(date, zone);
  if (zone === undefined) return { clock, label: '' };
  const viewer = wallClockIn(date, shown.viewerZone);
  return {
    clock,
    label: viewer.offset === clock.offset ? '' : ` ${zoneLabel(zone, date, shown.locale)}`,
  };
}

/** 'Thu, Apr 01, 2027' ('' when not a date). A date alone is that calendar day wherever it is read. */
export function formatDate(iso: string, shown: ShownIn = {}): string {
  const moment = momentOf(iso);
  if (!moment) return '';
  return dateText(moment.dateOnly ? wallClockIn(moment.date, undefined) : placed(moment.date, shown).clock);
}

/** 'Thu, Apr 01, 2027, 9:00 AM', or '..., 09:00' in a 24-hour locale; '..., 10:15 AM ET' in another zone. */
export function formatDateTime(iso: string, shown: ShownIn = {}): string {
  const moment = momentOf(iso);
  if (!moment) return '';
  const { clock, label } = placed(moment.date, shown);
  return `${dateText(clock)}, ${timeText(clock, shown.locale)}${label}`;
}

/** '9:00 AM' or '09:00', with the zone named as formatDateTime does ('' when not a date). */
export function formatTime(iso: string, shown: ShownIn = {}): string {
  const moment = momentOf(iso);
  if (!moment) return '';
  const { clock, label } = placed(moment.date, shown);
  return `${timeText(clock, shown.locale)}${label}`;
}

/** A time of day written 'HH:mm' (a dose time) as the viewer's clock reads it: '8:00 PM' or '20:00'. */
export function formatClockTime(time: string, locale?: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return time;
  const clock = { year: 0, month: 1, day: 1, hour: Number(match[1]), minute: Number(match[2]) };
  return timeText({ ...clock, second: 0, offset: 0 }, locale);
}

/** 'Thu, Apr 01, 2027, 9:00:05 AM': a moment when the seconds matter (the last sync). */
export function formatMoment(at: number, shown: Pick<ShownIn, 'locale'> = {}): string {
  const clock = wallClockIn(new Date(at), undefined);
  return `${dateText(clock)}, ${timeText(clock, shown.locale, true)}`;
}

/** 'Apr 1': a day on a chart's axis or in a short list of days (a YYYY-MM-DD date or an instant). */
export function formatDay(iso: string, shown: ShownIn = {}): string {
  const moment = momentOf(iso);
  if (!moment) return '';
  const clock = moment.dateOnly ? wallClockIn(moment.date, undefined) : placed(moment.date, shown).clock;
  return `${MONTHS[clock.month - 1]} ${clock.day}`;
}

/**
 * '2026/03/14' for '2026-03-14' or an ISO time's own date: the lab report screen's date format (its
 * filters and its list write dates so); '' when not a date.
 */
export function formatSlashedDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[1]}/${match[2]}/${match[3]}` : '';
}

// The largest whole unit, as Luxon's toRelative() picks it: no weeks ('8 days ago').
const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
];

let relativeFormat: Intl.RelativeTimeFormat | undefined;

/**
 * '2 minutes ago', '3 days ago', 'in 2 hours', and 'just now' for anything within a minute either way (a
 * sync that has just finished, a clock a few seconds ahead): words a person would say, not 'in 0 seconds'.
 * English, as every text of the app; Intl says the words ('1 hour ago', not '1 hours ago').
 */
export function relativeTime(at: number, now = Date.now()): string {
  const difference = at - now;
  relativeFormat ??= new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  for (const [unit, size] of RELATIVE_UNITS) {
    const count = Math.trunc(difference / size);
    if (count !== 0) return relativeFormat.format(count, unit);
  }
  return 'just now';
}
