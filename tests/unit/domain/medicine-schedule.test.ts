import { describe, expect, it } from 'vitest';
import {
  adherence,
  doseInstant,
  doseMarkId,
  doseMarkName,
  doseState,
  groupByTime,
  indexMarks,
  scheduleForDay,
  todayIn,
  uuidFromDigest,
} from '../../../src/domain/medicine-schedule';
import type { Prescription } from '../../../src/domain/prescriptions';

// The medicine schedule's rules: which prescriptions give doses on a day, each dose's instant in the
// prescription's zone (across daylight-saving changes), its state, grouping by time, adherence, and the
// dose mark's id that every device and the server make alike.

const base: Prescription = {
  id: '11111111-1111-4111-8111-111111111111',
  prescription_id: '11111111-1111-4111-8111-111111111111',
  patient_id: 'p',
  caregiver_id: null,
  medicine_name: 'Metformin',
  strength: '500 mg',
  form: 'tablet',
  directions: 'Take 1 tablet twice daily',
  doctor_id: null,
  pharmacy_id: null,
  quantity: null,
  refills: null,
  start_date: '2026-01-01',
  end_date: null,
  times: ['08:00', '20:00'],
  as_needed: false,
  status: 'active',
  notes: '',
  attachment_key: null,
  time_zone: 'America/New_York',
  reminders: true,
  alert_after_minutes: 60,
  alert_caregivers: [],
  version: 1,
  created_at: '',
  updated_at: '',
};
const rx = (overrides: Partial<Prescription>): Prescription => ({ ...base, ...overrides });
const mark = (scheduleId: string, date: string, time: string, isTaken: boolean) => ({
  schedule_id: scheduleId,
  date,
  time,
  is_taken: isTaken,
  marked_by: 'u',
  marked_by_name: 'Alex',
  marked_at: `${date}T12:00:00.000Z`,
});

describe('doseInstant', () => {
  it('keeps the wall-clock time across daylight-saving changes in the prescription zone', () => {
    // New York: EST (UTC-5) until 8 March 2026 02:00, then EDT (UTC-4) until 1 November 2026.
    expect(doseInstant('2026-03-07', '08:00', 'America/New_York').toUTC().toISO()).toBe(
      '2026-03-07T13:00:00.000Z',
    );
    expect(doseInstant('2026-03-08', '08:00', 'America/New_York').toUTC().toISO()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    expect(doseInstant('2026-11-01', '08:00', 'America/New_York').toUTC().toISO()).toBe(
      '2026-11-01T13:00:00.000Z',
    );
    // 02:30 does not exist on the spring-forward day: it is the first minute after the gap, 03:30 EDT.
    expect(doseInstant('2026-03-08', '02:30', 'America/New_York').toUTC().toISO()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    // 01:30 happens twice on the fall-back day: the first one, EDT.
    expect(doseInstant('2026-11-01', '01:30', 'America/New_York').toUTC().toISO()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // Another hemisphere and a half-hour zone.
    expect(doseInstant('2026-04-05', '08:00', 'Australia/Sydney').toUTC().toISO()).toBe(
      '2026-04-04T22:00:00.000Z',
    );
    expect(doseInstant('2026-06-01', '08:00', 'Asia/Kolkata').toUTC().toISO()).toBe(
      '2026-06-01T02:30:00.000Z',
    );
  });

  it('names the day in a zone', () => {
    const lateInLondon = new Date('2026-06-01T23:30:00Z');
    expect(todayIn('Europe/London', lateInLondon)).toBe('2026-06-02');
    expect(todayIn('America/Los_Angeles', lateInLondon)).toBe('2026-06-01');
  });
});

describe('scheduleForDay and groupByTime', () => {
  const metformin = rx({});
  const vitamin = rx({
    id: '22222222-2222-4222-8222-222222222222',
    medicine_name: 'Vitamin D',
    strength: '',
    times: ['08:00'],
  });
  const prescriptions = [
    vitamin,
    metformin,
    rx({ id: 'held', status: 'on_hold' }),
    rx({ id: 'later', start_date: '2026-12-01' }),
    rx({ id: 'ended', end_date: '2026-11-22' }),
    rx({ id: 'prn', times: [], as_needed: true }),
    rx({ id: 'done', status: 'completed' }),
  ];
  const now = new Date('2026-11-23T15:00:00Z'); // 10:00 in New York

  it('lists the active prescriptions of the day with each dose, its mark and its state', () => {
    const marks = indexMarks([
      mark(metformin.id, '2026-11-23', '08:00', true),
      mark(metformin.id, '2026-11-22', '20:00', false),
    ]);
    const entries = scheduleForDay('2026-11-23', prescriptions, marks, now);
    expect(entries.map((entry) => entry.label)).toEqual(['Metformin 500 mg', 'Vitamin D']);
    expect(entries[0]?.doses).toEqual([
      expect.objectContaining({ time: '08:00', is_taken: true, state: 'taken', marked_by_name: 'Alex' }),
      expect.objectContaining({
        time: '20:00',
        is_taken: null,
        state: 'upcoming',
        due_at: '2026-11-24T01:00:00.000Z',
      }),
    ]);
    expect(entries[1]?.doses[0]).toMatchObject({ time: '08:00', is_taken: null, state: 'missed' });
    expect(entries[0]?.is_taken).toBe(false);
    // The end date is the last day; the start date the first.
    expect(scheduleForDay('2026-11-22', [rx({ end_date: '2026-11-22' })], new Map(), now)).toHaveLength(1);
    expect(scheduleForDay('2026-12-01', [rx({ start_date: '2026-12-01' })], new Map(), now)).toHaveLength(1);
  });

  it('groups the day by time, in order', () => {
    const slots = groupByTime(scheduleForDay('2026-11-23', prescriptions, new Map(), now));
    expect(slots.map((slot) => [slot.time, slot.items.map((item) => item.entry.medicine_name)])).toEqual([
      ['08:00', ['Metformin', 'Vitamin D']],
      ['20:00', ['Metformin']],
    ]);
  });

  it('tells due from missed from upcoming', () => {
    const due = doseInstant('2026-11-23', '08:00', 'UTC');
    expect(doseState(null, due, new Date('2026-11-23T07:59:00Z'))).toBe('upcoming');
    expect(doseState(null, due, new Date('2026-11-23T08:30:00Z'))).toBe('due');
    expect(doseState(null, due, new Date('2026-11-23T09:01:00Z'))).toBe('missed');
    expect(doseState(false, due, new Date('2026-11-23T09:01:00Z'))).toBe('not-taken');
    expect(doseState(true, due, new Date('2026-11-23T07:00:00Z'))).toBe('taken');
  });

  it('calls a dose due before its prescription was added neither missed nor due', () => {
    // Added at 11:00 in New York, with an 08:00 and a 20:00 dose, seen at 11:05.
    const added = rx({ start_date: '2026-11-23', created_at: '2026-11-23T16:00:00.000Z' });
    const seen = new Date('2026-11-23T16:05:00Z');
    const [entry] = scheduleForDay('2026-11-23', [added], new Map(), seen);
    expect(entry?.doses.map((dose) => [dose.time, dose.state])).toEqual([
      ['08:00', 'before-added'],
      ['20:00', 'upcoming'],
    ]);
    // Marked as taken anyway (the person took it before adding the medicine): that counts.
    const taken = indexMarks([mark(added.id, '2026-11-23', '08:00', true)]);
    expect(scheduleForDay('2026-11-23', [added], taken, seen)[0]?.doses[0]?.state).toBe('taken');
    // A start date in the past does not make the days before it was added missed.
    const backdated = rx({ start_date: '2026-11-01', created_at: '2026-11-23T16:00:00.000Z' });
    expect(scheduleForDay('2026-11-20', [backdated], new Map(), seen)[0]?.doses[0]?.state).toBe(
      'before-added',
    );
  });
});

describe('adherence', () => {
  it('counts the doses due by now and those taken, day by day', () => {
    const metformin = rx({ start_date: '2026-11-20' });
    const marks = indexMarks([
      mark(metformin.id, '2026-11-20', '08:00', true),
      mark(metformin.id, '2026-11-20', '20:00', true),
      mark(metformin.id, '2026-11-21', '08:00', false),
      mark(metformin.id, '2026-11-22', '20:00', true),
      mark(metformin.id, '2026-11-23', '08:00', true),
    ]);
    const now = new Date('2026-11-23T15:00:00Z'); // 10:00 in New York: the 20:00 dose is not due yet
    const result = adherence('2026-11-23', 7, [metformin], marks, now);
    expect(result.days.map((day) => [day.date, day.due, day.taken])).toEqual([
      ['2026-11-17', 0, 0],
      ['2026-11-18', 0, 0],
      ['2026-11-19', 0, 0],
      ['2026-11-20', 2, 2],
      ['2026-11-21', 2, 0],
      ['2026-11-22', 2, 1],
      ['2026-11-23', 1, 1],
    ]);
    expect(result).toMatchObject({ due: 7, taken: 4, percent: 57 });
    expect(adherence('2026-11-23', 30, [], new Map(), now).percent).toBeNull();
  });

  it('does not count doses due before the prescription was added, unless they were taken', () => {
    const now = new Date('2026-11-23T16:05:00Z'); // 11:05 in New York
    // Added at 11:00 today, started weeks ago: nothing was due since, so there is no adherence yet.
    const added = rx({ start_date: '2026-11-01', created_at: '2026-11-23T16:00:00.000Z' });
    const fresh = adherence('2026-11-23', 7, [added], new Map(), now);
    expect(fresh).toMatchObject({ due: 0, taken: 0, percent: null });
    // One earlier dose marked as taken counts as taken; the unmarked ones still do not count.
    const marks = indexMarks([mark(added.id, '2026-11-22', '08:00', true)]);
    expect(adherence('2026-11-23', 7, [added], marks, now)).toMatchObject({ due: 1, taken: 1, percent: 100 });
    // Added yesterday at 11:00: yesterday's 20:00 dose was due (unmarked: 0 of 1).
    const yesterday = rx({ start_date: '2026-11-01', created_at: '2026-11-22T16:00:00.000Z' });
    expect(adherence('2026-11-23', 7, [yesterday], new Map(), now)).toMatchObject({ due: 2, taken: 0 });
  });
});

describe('doseMarkId', () => {
  it('is the same UUID on every device for the same dose, and different for another dose', async () => {
    const id = await doseMarkId(base.id, '2026-11-23', '08:00');
    // SHA-1 of the name, in the version 5 layout (worked out once with node:crypto, outside this code).
    expect(doseMarkName(base.id, '2026-11-23', '08:00')).toBe(
      'kincare-dose:11111111-1111-4111-8111-111111111111:2026-11-23:08:00',
    );
    expect(id).toBe('dfddbfee-5b29-5787-93b6-ef3a882e6618');
    expect(uuidFromDigest(new Uint8Array(20))).toBe('00000000-0000-5000-8000-000000000000');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await doseMarkId(base.id.toUpperCase(), '2026-11-23', '08:00')).toBe(id);
    expect(await doseMarkId(base.id, '2026-11-23', '20:00')).not.toBe(id);
    expect(await doseMarkId(base.id, '2026-11-24', '08:00')).not.toBe(id);
  });
});
