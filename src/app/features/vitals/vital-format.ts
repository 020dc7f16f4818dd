import { DateTime } from 'luxon';
import { formatDateTime, formatDay, formatTime } from '../../../domain/date-display';
import {
  againstTarget,
  convert,
  displayUnit,
  hasTarget,
  readingIn,
  roundFor,
  VITAL_LABELS,
  type Vital,
  type VitalKind,
  type VitalTarget,
  type VitalUnit,
} from '../../../domain/vitals';
import type { ChartPoint } from '../../ui/chart/chart-geometry';
import type { VitalSettings } from './vital-settings';

// How the Vitals screens say a reading: its time as the patient's clock read it, its value in the
// person's unit rounded as that unit is read, whether it lies outside their target (in words), and the
// day-by-day series the charts draw.

/**
 * A reading's time on the clock it was taken by (its own offset): 'Today, 8:15 AM', or the app's date and
 * time; when this device's clock read otherwise then (a caregiver elsewhere, or a trip), the offset is
 * named as every time of another zone is ('Today, 8:15 AM GMT-5').
 */
export function measuredAtText(iso: string, now: Date = new Date()): string {
  const at = DateTime.fromISO(iso, { setZone: true });
  if (!at.isValid) return '';
  const shown = { zone: `UTC${at.toFormat('ZZ')}` };
  const today = DateTime.fromJSDate(now).setZone(at.zone).startOf('day');
  const day = at.startOf('day');
  if (day.equals(today)) return `Today, ${formatTime(iso, shown)}`;
  if (day.equals(today.minus({ days: 1 }))) return `Yesterday, ${formatTime(iso, shown)}`;
  return formatDateTime(iso, shown);
}

/** The calendar day a reading was taken on, by the clock it was taken by ('2026-11-20'). */
export const dayOfReading = (iso: string): string =>
  DateTime.fromISO(iso, { setZone: true }).toISODate() ?? iso.slice(0, 10);

/** Now, with this device's offset: what a reading taken now is dated (the schema wants an offset). */
export const nowWithOffset = (now: Date = new Date()): string => DateTime.fromJSDate(now).toISO() ?? '';

/** A reading's time for a datetime-local field, on its own clock. */
export const inputOfIso = (iso: string): string =>
  DateTime.fromISO(iso, { setZone: true }).toFormat("yyyy-MM-dd'T'HH:mm");

/** A datetime-local field's value as a time with an offset (the device's, or `zoneOf`'s); null if none. */
export function isoOfInput(value: string, zoneOf?: string): string | null {
  const zone = zoneOf ? DateTime.fromISO(zoneOf, { setZone: true }).zone : undefined;
  const at = DateTime.fromISO(value, zone ? { zone } : {});
  return at.isValid ? at.toISO() : null;
}

/** The readings newest first, by the instant they were taken (their offsets may differ). */
export const newestFirst = (readings: readonly Vital[]): Vital[] =>
  [...readings].sort((a, b) => Date.parse(b.measured_at) - Date.parse(a.measured_at));

/** The part of a reading a chart draws: one value, or one of blood pressure's two numbers. */
export type SeriesPart = 'value' | 'systolic' | 'diastolic';

/** A target in `unit`, each end rounded as that unit is read (what the person sees is what is compared). */
export function targetIn(target: VitalTarget, unit: VitalUnit): VitalTarget {
  return {
    low: roundFor(unit, convert(target.low, target.unit, unit)),
    high: roundFor(unit, convert(target.high, target.unit, unit)),
    unit,
  };
}

/** The person's target for a kind (or one of blood pressure's numbers) in their unit; undefined if none. */
export function shownTarget(
  kind: VitalKind,
  part: SeriesPart,
  settings: VitalSettings,
): VitalTarget | undefined {
  const unit = displayUnit(kind, settings.units);
  const target =
    kind === 'blood_pressure'
      ? part === 'diastolic'
        ? settings.targets.blood_pressure?.diastolic
        : settings.targets.blood_pressure?.systolic
      : settings.targets[kind];
  return hasTarget(target) ? targetIn(target, unit) : undefined;
}

/** The charts of a kind: blood pressure draws its two numbers apart, the others their one value. */
export function seriesOf(kind: VitalKind): { part: SeriesPart; title: string }[] {
  if (kind === 'blood_pressure')
    return [
      { part: 'systolic', title: 'Blood pressure, top number (systolic)' },
      { part: 'diastolic', title: 'Blood pressure, bottom number (diastolic)' },
    ];
  return [{ part: 'value', title: VITAL_LABELS[kind] }];
}

/**
 * 'High', 'Low' (for blood pressure, which number), or null: a reading against the person's target, both
 * in their unit and rounded as it is read, so a reading shown as 120 is never called high against a
 * target shown as ending at 120.
 */
export function readingFlag(reading: Vital, settings: VitalSettings): string | null {
  const unit = displayUnit(reading.kind, settings.units);
  const shown = readingIn(reading, unit);
  const flagOf = (value: number | null, part: SeriesPart) => {
    const target = shownTarget(reading.kind, part, settings);
    if (value === null || !target) return null;
    const against = againstTarget(value, unit, target);
    return against === 'in range' ? null : against;
  };
  if (reading.kind !== 'blood_pressure') {
    const flag = flagOf(shown.value, 'value');
    return flag === 'high' ? 'High' : flag === 'low' ? 'Low' : null;
  }
  const top = flagOf(shown.systolic, 'systolic');
  const bottom = flagOf(shown.diastolic, 'diastolic');
  if (!top && !bottom) return null;
  if (top === bottom) return top === 'high' ? 'High' : 'Low';
  const parts = [top ? `${top} top number` : null, bottom ? `${bottom} bottom number` : null].filter(
    (part): part is string => part !== null,
  );
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The `count` days up to `now`'s, oldest first ('YYYY-MM-DD'). */
export function daysUpTo(count: number, now: Date = new Date()): string[] {
  const today = DateTime.fromJSDate(now).startOf('day');
  return Array.from(
    { length: count },
    (_, index) => today.minus({ days: count - 1 - index }).toISODate() ?? '',
  );
}

/**
 * One point a day over `days`: the average of that day's readings of the kind, in `unit`, rounded as it is
 * read (null for a day without one: a gap, not a zero).
 */
export function dailySeries(
  readings: readonly Vital[],
  kind: VitalKind,
  part: SeriesPart,
  days: readonly string[],
  unit: VitalUnit,
): ChartPoint[] {
  const byDay = new Map<string, number[]>();
  for (const reading of readings) {
    const raw = reading.kind === kind ? reading[part] : null;
    if (raw === null || raw === undefined) continue;
    const day = dayOfReading(reading.measured_at);
    byDay.set(day, [...(byDay.get(day) ?? []), convert(raw, reading.unit as VitalUnit, unit)]);
  }
  return days.map((day) => {
    const values = byDay.get(day);
    const average = values ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
    return { label: formatDay(day), value: average === null ? null : roundFor(unit, average) };
  });
}
