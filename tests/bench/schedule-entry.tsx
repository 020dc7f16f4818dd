// Bundled into the benchmark page (see schedule-chromium.ts). It seeds a patient's replica and opens the
// medicine schedule the way the app does, timing each step:
// - seed: 12 active prescriptions and 5 years of dose marks (BENCH_SCHEDULE_YEARS), bulkPut straight into the tables of a
//   KincareDb opened by openUserDb (the replica the shell opens), with the session and profile the
//   schedule's hooks read (a signed-in patient);
// - openCold / openWarm: the real TodaysSchedule ('page' variant: today's doses grouped by time, the day
//   picker, the 7-day adherence chart) rendered with React into the document, from "start reading" until
//   every dose row and every bar of the chart is in the DOM (a MutationObserver sees them), and until the
//   next frame has been produced with them;
// - openFromMemory: the baseline, the same screen's output from the same rows already in memory (no
//   IndexedDB): the same domain functions (scheduleForDay, adherence, groupByTime), the real AdherenceChart
//   and Badge, and a copy of TodaysSchedule's row markup (its TimeSlot and DoseRow are not exported);
// - reads: scheduleOn, adherenceOf(7) and adherenceOf(30) from the tables, beside the same domain
//   functions over the rows already in memory.
import { StrictMode, useId, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AlertTriangle, CalendarCheck, Check, Clock, X } from 'lucide-react';
import { DateTime } from 'luxon';
import '../../src/app/styles.css';
import { openUserDb, userDb, deleteUserDbs } from '../../src/local/db';
import { resumeSession, storeSession } from '../../src/local/session';
import { adherenceOf, marksBetween, prescriptionsOf, scheduleOn } from '../../src/local/medicine-schedule';
import {
  adherence,
  groupByTime,
  indexMarks,
  scheduleForDay,
  type DoseMark,
  type ScheduledDose,
  type ScheduleEntry,
  type ScheduleSlot,
} from '../../src/domain/medicine-schedule';
import type { Prescription, PrescriptionForm } from '../../src/domain/prescriptions';
import type { Profile } from '../../src/domain/auth';
import { TodaysSchedule } from '../../src/app/features/medicines/todays-schedule';
import { localDay } from '../../src/app/features/medicines/use-medicine-schedule';
import { AdherenceChart } from '../../src/app/features/medicines/adherence-chart';
import { dayLabel, doseBadge, slotSummary } from '../../src/app/features/medicines/schedule-format';
import { Badge } from '../../src/app/ui/badge';

const ZONE = 'America/New_York';
/** Years of dose marks: set when the bundle is built (schedule-chromium.ts, BENCH_SCHEDULE_YEARS; 5 by default). */
declare const __SCHEDULE_YEARS__: number;
const YEARS = __SCHEDULE_YEARS__;
/** Dose times of the 12 prescriptions: 1 to 4 a day each (30 doses a day). */
const TIMES: string[][] = [
  ['08:00'],
  ['08:00', '20:00'],
  ['08:00', '14:00', '20:00'],
  ['06:00', '12:00', '18:00', '22:00'],
  ['21:00'],
  ['09:00', '21:00'],
  ['07:00', '15:00', '23:00'],
  ['08:00', '12:00', '17:00', '21:00'],
  ['07:30'],
  ['10:00', '22:00'],
  ['06:00', '14:00', '22:00'],
  ['08:00', '13:00', '18:00', '22:00'],
];
const MEDICINES: [string, string, PrescriptionForm, string][] = [
  ['Metformin', '500 mg', 'tablet', 'Take 1 tablet by mouth with breakfast'],
  ['Lisinopril', '10 mg', 'tablet', 'Take 1 tablet by mouth twice daily'],
  ['Amoxicillin', '500 mg', 'capsule', 'Take 1 capsule every 8 hours'],
  ['Albuterol', '90 mcg', 'inhaler', 'Inhale 2 puffs four times daily'],
  ['Atorvastatin', '20 mg', 'tablet', 'Take 1 tablet at bedtime'],
  ['Levothyroxine', '50 mcg', 'tablet', 'Take 1 tablet twice daily'],
  ['Gabapentin', '300 mg', 'capsule', 'Take 1 capsule three times daily'],
  ['Insulin glargine', '10 units', 'injection', 'Inject 10 units with meals and at bedtime'],
  ['Amlodipine', '5 mg', 'tablet', 'Take 1 tablet in the morning'],
  ['Timolol', '0.5%', 'drops', 'Instill 1 drop in each eye twice daily'],
  ['Omeprazole', '20 mg', 'capsule', 'Take 1 capsule every 8 hours'],
  ['Prednisone', '5 mg', 'tablet', 'Take 1 tablet four times daily'],
];

/** A deterministic sequence (mulberry32), so every run seeds the same marks. */
function randomSequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An unsigned token whose `sub` is the user: readSession only decodes it (the server is not involved). */
function tokenFor(userId: string): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: userId })}.bench`;
}

export type Seeded = {
  patientId: string;
  prescriptions: number;
  marks: number;
  taken: number;
  notTaken: number;
  /** Doses of today: the rows the screen must show. */
  dosesToday: number;
  today: string;
  seedMs: number;
};

/** Seeds the replica of a fresh user (a patient) and signs them in on this origin. */
async function seed(userId: string): Promise<Seeded> {
  const start = performance.now();
  const patientId = crypto.randomUUID();
  const now = new Date();
  const today = DateTime.fromJSDate(now, { zone: ZONE });
  const firstDay = today.minus({ years: YEARS });
  const startDate = firstDay.toISODate() ?? '';
  const stamp = firstDay.toISO() ?? '';
  const prescriptions: Prescription[] = TIMES.map((times, index) => {
    const [name, strength, form, directions] = MEDICINES[index] ?? ['Medicine', '', 'tablet', ''];
    const id = crypto.randomUUID();
    return {
      id,
      prescription_id: id,
      patient_id: patientId,
      caregiver_id: null,
      version: index + 1,
      created_at: stamp,
      updated_at: stamp,
      medicine_name: name,
      strength,
      form,
      directions,
      doctor_id: null,
      pharmacy_id: null,
      quantity: 90,
      refills: 3,
      start_date: startDate,
      end_date: null,
      times,
      as_needed: false,
      status: 'active',
      notes: '',
      attachment_key: null,
      time_zone: ZONE,
      reminders: true,
      alert_after_minutes: 60,
      alert_caregivers: [],
    };
  });
  // Every dose from the first day to now: about 90% marked taken, 5% marked not taken, 5% never marked.
  const random = randomSequence(11);
  const marks: DoseMark[] = [];
  let taken = 0;
  let notTaken = 0;
  const nowIso = now.toISOString();
  for (let day = firstDay.startOf('day'); day <= today; day = day.plus({ days: 1 })) {
    const date = day.toISODate() ?? '';
    for (const prescription of prescriptions)
      for (const time of prescription.times) {
        const [hour = 0, minute = 0] = time.split(':').map(Number);
        const due = day.set({ hour, minute });
        if (due.toMillis() > now.getTime()) continue;
        const draw = random();
        if (draw >= 0.95) continue;
        const isTaken = draw < 0.9;
        if (isTaken) taken++;
        else notTaken++;
        const markedAt =
          due
            .plus({ minutes: Math.floor(random() * 40) })
            .toUTC()
            .toISO() ?? nowIso;
        marks.push({
          id: crypto.randomUUID(),
          patient_id: patientId,
          schedule_id: prescription.id,
          date,
          time,
          is_taken: isTaken,
          marked_by: userId,
          marked_by_name: 'Pat Bench',
          marked_at: markedAt,
          version: marks.length + 100,
          created_at: markedAt,
          updated_at: markedAt,
        });
      }
  }
  const profile: Profile = {
    id: userId,
    name: 'Pat Bench',
    role: 'Patient',
    email: 'pat.bench@example.test',
    zip_code: '10001',
    patient_id: patientId,
    caregiver_id: null,
    stripe_customer_id: null,
    email_verified: true,
    birth_date: null,
    age: null,
    gender: null,
    race: null,
    ethnicity: null,
    phone: null,
    address: null,
    city: null,
    state: null,
    photo_url: null,
    beta_policy_accepted_at: null,
  };
  await storeSession(tokenFor(userId), 'Patient');
  const db = await openUserDb(userId);
  await db.profile.put(profile);
  await db.prescriptions.bulkPut(prescriptions);
  // Seeding, not syncing: straight into the table, in slices so no single transaction holds everything.
  for (let from = 0; from < marks.length; from += 10_000)
    await db.dose_marks.bulkPut(marks.slice(from, from + 10_000));
  const stored = await db.dose_marks.count();
  if (stored !== marks.length) throw new Error(`stored ${stored} of ${marks.length} marks`);
  db.close();
  const dosesToday = prescriptions.reduce((sum, prescription) => sum + prescription.times.length, 0);
  return {
    patientId,
    prescriptions: prescriptions.length,
    marks: marks.length,
    taken,
    notTaken,
    dosesToday,
    today: today.toISODate() ?? '',
    seedMs: performance.now() - start,
  };
}

export type Opened = {
  /** From "start reading" until every dose row and every bar of the 7-day chart is in the DOM. */
  rowsMs: number;
  /** Until the next frame after that has been produced (style, layout and paint of the rows included). */
  frameMs: number;
  rows: number;
  bars: number;
  /** Time slots (the doses grouped by time). */
  slots: number;
};

const host = () => {
  const element = document.getElementById('root');
  if (!element) throw new Error('the page has no #root');
  return element;
};

/** When the container holds `rows` dose rows and `bars` day marks of the chart (checked on every mutation). */
function whenShown(container: HTMLElement, rows: number, bars: number): Promise<number> {
  const shown = () =>
    container.querySelectorAll('[data-testid="dose"]').length === rows &&
    container.querySelectorAll('[data-testid="adherence-chart"] [data-day]').length === bars;
  return new Promise((resolve, reject) => {
    // A screen that never shows its rows is a broken run, not a slow one: fail instead of hanging.
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`the schedule did not show ${rows} dose rows and ${bars} chart days within 30 s`));
    }, 30_000);
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(performance.now());
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
  });
}

/** The end of the next frame: a task queued from requestAnimationFrame runs after that frame's paint. */
function afterNextFrame(): Promise<number> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    }),
  );
}

let root: Root | null = null;
function unmount() {
  root?.unmount();
  root = null;
  host().replaceChildren();
}

async function timeRender(
  start: number,
  expected: { rows: number; bars: number },
  tree: ReactNode,
): Promise<Opened> {
  const container = host();
  const shown = whenShown(container, expected.rows, expected.bars);
  root = createRoot(container);
  root.render(<StrictMode>{tree}</StrictMode>);
  const rowsAt = await shown;
  const frameAt = await afterNextFrame();
  return {
    rowsMs: rowsAt - start,
    frameMs: frameAt - start,
    rows: container.querySelectorAll('[data-testid="dose"]').length,
    bars: container.querySelectorAll('[data-testid="adherence-chart"] [data-day]').length,
    slots: container.querySelectorAll('[data-testid^="slot-"]').length,
  };
}

/**
 * The first open after seeding, in a fresh page (the browser restarted): the session is resumed and the
 * replica opened as at app start (resumeSession), then the schedule renders. `openMs` is that opening.
 */
async function openCold(
  patientId: string,
  expected: { rows: number; bars: number },
): Promise<Opened & { openMs: number; renderMs: number }> {
  const start = performance.now();
  if (!(await resumeSession())) throw new Error('no session to resume: the seed did not sign in');
  const openMs = performance.now() - start;
  const opened = await timeRender(
    start,
    expected,
    <TodaysSchedule patientId={patientId} canMark variant="page" />,
  );
  return { ...opened, openMs, renderMs: opened.rowsMs - openMs };
}

/** The schedule opened again (the replica open, the code warm): unmount, then render anew. */
async function openWarm(patientId: string, expected: { rows: number; bars: number }): Promise<Opened> {
  unmount();
  await afterNextFrame();
  return timeRender(
    performance.now(),
    expected,
    <TodaysSchedule patientId={patientId} canMark variant="page" />,
  );
}

// The baseline: the same rows, read once into memory, and the same screen made from them without IndexedDB.
type InMemory = { prescriptions: Prescription[]; marks: DoseMark[] };
let memory: InMemory | null = null;

async function loadMemory(patientId: string, today: string): Promise<number> {
  const db = userDb();
  const from = DateTime.fromISO(today).minus({ days: 29 }).toISODate() ?? today;
  memory = {
    prescriptions: await prescriptionsOf(db, patientId),
    marks: await marksBetween(db, patientId, from, today),
  };
  return memory.marks.length;
}

/** The marks of [from, to] from memory: what marksBetween answers from the table. */
function marksInMemory(from: string, to: string): DoseMark[] {
  return (memory?.marks ?? []).filter((mark) => mark.date >= from && mark.date <= to);
}

function MemorySchedule({ now }: { now: Date }) {
  const today = localDay(now);
  const prescriptions = memory?.prescriptions ?? [];
  const entries = scheduleForDay(today, prescriptions, indexMarks(marksInMemory(today, today)), now);
  const weekFrom = DateTime.fromISO(today).minus({ days: 6 }).toISODate() ?? today;
  const week = adherence(today, 7, prescriptions, indexMarks(marksInMemory(weekFrom, today)), now);
  return (
    <div data-testid="medicine-schedule">
      <section aria-labelledby="memory-schedule-heading">
        <h2 id="memory-schedule-heading" className="mb-3 flex items-center gap-2 text-heading text-text">
          <CalendarCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
          Medicine schedule
        </h2>
        <p className="mb-2 text-title text-text">{dayLabel(today, today)}</p>
        <div role="group" aria-label="Day" className="mb-4 grid grid-cols-3 gap-2">
          <button type="button">Previous day</button>
          <button type="button" disabled>
            Today
          </button>
          <button type="button">Next day</button>
        </div>
        <ol className="space-y-6" aria-label={`Medicines, ${dayLabel(today, today)}`}>
          {groupByTime(entries).map((slot) => (
            <MemorySlot key={slot.time} slot={slot} date={today} />
          ))}
        </ol>
      </section>
      <AdherenceChart adherence={week} period={7} onPeriod={() => undefined} />
    </div>
  );
}

const STATE_ICONS = {
  taken: <Check />,
  'not-taken': <X />,
  missed: <AlertTriangle />,
  due: <Clock />,
  upcoming: <Clock />,
  'before-added': <Clock />,
} as const;

/** TodaysSchedule's TimeSlot and DoseRow markup (page variant, markable), copied for the baseline. */
function MemorySlot({ slot, date }: { slot: ScheduleSlot; date: string }) {
  const headingId = useId();
  const missed = slot.items.some((item) => item.dose.state === 'missed');
  return (
    <li data-testid={`slot-${slot.time}`}>
      <h3 id={headingId} className="mb-2 flex flex-wrap items-baseline gap-x-3 border-b border-border pb-1">
        <span className="text-title tabular-nums">{slot.time}</span>
        <span className={`text-base font-semibold ${missed ? 'text-danger-strong' : 'text-muted'}`}>
          {slotSummary(slot)}
        </span>
      </h3>
      <ul className="space-y-3">
        {slot.items.map(({ entry, dose }) => (
          <MemoryRow key={entry.schedule_id} entry={entry} dose={dose} date={date} />
        ))}
      </ul>
    </li>
  );
}

function MemoryRow({ entry, dose, date }: { entry: ScheduleEntry; dose: ScheduledDose; date: string }) {
  const badge = doseBadge(dose, date, entry.time_zone);
  const missed = dose.state === 'missed';
  const button =
    'inline-flex min-h-14 min-w-14 items-center justify-center gap-2 rounded-control border px-3 text-lg font-semibold';
  return (
    <li
      data-testid="dose"
      data-state={dose.state}
      className={`flex flex-wrap items-center justify-between gap-3 rounded-card p-4 shadow-card ring-1 ring-border ${
        missed ? 'border-l-8 border-danger bg-danger-soft' : 'bg-surface'
      }`}
    >
      <div className="min-w-0 flex-[1_1_12rem]">
        <p className="text-title text-text [overflow-wrap:anywhere]">{entry.label}</p>
        <p className="mt-0.5 text-base text-muted">{entry.directions}</p>
        <Badge tone={badge.tone} icon={STATE_ICONS[dose.state]} className="mt-2">
          {badge.text}
        </Badge>
      </div>
      <div role="group" aria-label={`${entry.label} at ${dose.time}`} className="grid grid-cols-2 gap-2">
        <button type="button" aria-pressed={dose.is_taken === true} className={button}>
          {dose.is_taken === true ? <Check aria-hidden="true" className="h-5 w-5 shrink-0" /> : null}
          Taken
        </button>
        <button type="button" aria-pressed={dose.is_taken === false} className={button}>
          {dose.is_taken === false ? <X aria-hidden="true" className="h-5 w-5 shrink-0" /> : null}
          Not taken
        </button>
      </div>
    </li>
  );
}

async function openFromMemory(expected: { rows: number; bars: number }): Promise<Opened> {
  unmount();
  await afterNextFrame();
  return timeRender(performance.now(), expected, <MemorySchedule now={new Date()} />);
}

export type Reads = {
  /** scheduleOn, adherenceOf(7), adherenceOf(30) from the tables, each alone, and the three at once. */
  tables: { schedule: number; week: number; month: number; together: number };
  /** The same domain functions over the same rows already in memory. */
  memory: { schedule: number; week: number; month: number; together: number };
  /** What the reads answered: the day's doses and the doses due over 7 and 30 days (checks both agree). */
  doses: number;
  due7: number;
  due30: number;
};

/** One round of the screen's reads, from the tables and from memory. */
async function reads(patientId: string): Promise<Reads> {
  const db = userDb();
  const now = new Date();
  const today = localDay(now);
  const timed = async <T,>(run: () => Promise<T> | T): Promise<[T, number]> => {
    const start = performance.now();
    const value = await run();
    return [value, performance.now() - start];
  };
  const [entries, schedule] = await timed(() => scheduleOn(db, patientId, today, now));
  const [week, weekMs] = await timed(() => adherenceOf(db, patientId, today, 7, now));
  const [month, monthMs] = await timed(() => adherenceOf(db, patientId, today, 30, now));
  const [, together] = await timed(() =>
    Promise.all([
      scheduleOn(db, patientId, today, now),
      adherenceOf(db, patientId, today, 7, now),
      adherenceOf(db, patientId, today, 30, now),
    ]),
  );
  const prescriptions = memory?.prescriptions ?? [];
  const back = (days: number) =>
    DateTime.fromISO(today)
      .minus({ days: days - 1 })
      .toISODate() ?? today;
  const inMemory = {
    schedule: () => scheduleForDay(today, prescriptions, indexMarks(marksInMemory(today, today)), now),
    week: () => adherence(today, 7, prescriptions, indexMarks(marksInMemory(back(7), today)), now),
    month: () => adherence(today, 30, prescriptions, indexMarks(marksInMemory(back(30), today)), now),
  };
  const [memoryEntries, memorySchedule] = await timed(inMemory.schedule);
  const [memoryWeek, memoryWeekMs] = await timed(inMemory.week);
  const [memoryMonth, memoryMonthMs] = await timed(inMemory.month);
  const [, memoryTogether] = await timed(() => [inMemory.schedule(), inMemory.week(), inMemory.month()]);
  const doses = entries.reduce((sum, entry) => sum + entry.doses.length, 0);
  const memoryDoses = memoryEntries.reduce((sum, entry) => sum + entry.doses.length, 0);
  if (doses !== memoryDoses || week.due !== memoryWeek.due || month.taken !== memoryMonth.taken)
    throw new Error('the reads from the tables and from memory disagree');
  return {
    tables: { schedule, week: weekMs, month: monthMs, together },
    memory: {
      schedule: memorySchedule,
      week: memoryWeekMs,
      month: memoryMonthMs,
      together: memoryTogether,
    },
    doses,
    due7: week.due,
    due30: month.due,
  };
}

/** Switching the open schedule's chart to 30 days (adherenceOf(30) read and drawn): until 30 bars show. */
async function switchTo30Days(): Promise<number> {
  const container = host();
  const button = [...container.querySelectorAll('button')].find((each) => each.textContent === '30 days');
  if (!button) throw new Error('no "30 days" button on the schedule');
  const start = performance.now();
  const rows = container.querySelectorAll('[data-testid="dose"]').length;
  const shown = whenShown(container, rows, 30);
  button.click();
  return (await shown) - start;
}

export type ColdParts = {
  /** resumeSession: the session read and the replica opened. */
  openMs: number;
  /** The screen's first reads on the fresh replica (one after the other): scheduleOn, adherenceOf(7). */
  scheduleMs: number;
  weekMs: number;
  /** Then the first render of the same screen from memory (React and the components' first run). */
  renderMs: number;
};

/**
 * Where a cold open's time goes, in another fresh page (Chromium restarted again): the same first steps
 * as openCold, taken one at a time.
 */
async function coldParts(patientId: string, expected: { rows: number; bars: number }): Promise<ColdParts> {
  let start = performance.now();
  if (!(await resumeSession())) throw new Error('no session to resume: the seed did not sign in');
  const openMs = performance.now() - start;
  const db = userDb();
  const now = new Date();
  const today = localDay(now);
  start = performance.now();
  await scheduleOn(db, patientId, today, now);
  const scheduleMs = performance.now() - start;
  start = performance.now();
  await adherenceOf(db, patientId, today, 7, now);
  const weekMs = performance.now() - start;
  await loadMemory(patientId, today);
  const rendered = await timeRender(performance.now(), expected, <MemorySchedule now={now} />);
  return { openMs, scheduleMs, weekMs, renderMs: rendered.rowsMs };
}

async function cleanUp(): Promise<void> {
  unmount();
  await deleteUserDbs();
}

export const kincareSchedule = {
  seed,
  openCold,
  coldParts,
  openWarm,
  loadMemory,
  openFromMemory,
  reads,
  switchTo30Days,
  cleanUp,
};
export type KincareSchedule = typeof kincareSchedule;
(globalThis as unknown as { kincareSchedule: KincareSchedule }).kincareSchedule = kincareSchedule;
