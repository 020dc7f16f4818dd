import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Prescription } from '../../../src/domain/prescriptions';
import { REMINDER_MESSAGES } from '../../../src/domain/reminders';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { markDose } from '../../../src/local/dose-marks';
import {
  adherenceSummary,
  dayLabel,
  doseBadge,
  slotSummary,
} from '../../../src/app/features/medicines/schedule-format';

// The medicine schedule screen on the device's tables: doses grouped by time
// with their state in words, Taken / Not taken writing through the outbox as the signed-in person, no
// buttons for someone who may only read, the day picker for late marks, the states moving on by the
// minute, adherence with days that had nothing due left empty, and the reminder switch's honest states.

const who = vi.hoisted(() => ({
  role: 'Caregiver' as 'Caregiver' | 'Patient',
  permissions: ['ReadPrescription', 'EditPrescription'] as string[],
}));

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));
vi.mock('../../../src/app/shell/use-session', () => ({
  useSession: () => ({ token: 't', role: who.role, userId: 'user-cam' }),
  useProfile: () => ({ id: 'user-cam', name: 'Cam Carer', patient_id: null }),
}));
vi.mock('../../../src/app/shell/use-caregiver-permissions', () => ({
  useCaregiverPermissions: () => who.permissions,
}));

// The few DOM matchers these tests use (the project has no jest-dom).
interface DomMatchers<R = unknown> {
  toHaveTextContent(text: string): R;
  toHaveAttribute(name: string, value: string): R;
  toBeDisabled(): R;
}
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T> extends DomMatchers<T> {}
}
expect.extend({
  toHaveTextContent(received: Element, text: string) {
    const actual = received.textContent ?? '';
    return { pass: actual.includes(text), message: () => `expected "${actual}" to contain "${text}"` };
  },
  toHaveAttribute(received: Element, name: string, value: string) {
    const actual = received.getAttribute(name);
    return { pass: actual === value, message: () => `expected ${name}="${actual}" to be "${value}"` };
  },
  toBeDisabled(received: HTMLButtonElement) {
    return { pass: received.disabled, message: () => `expected ${received.outerHTML} to be disabled` };
  },
});

// Imported after the mocks above.
const { TodaysSchedule } = await import('../../../src/app/features/medicines/todays-schedule');

const PATIENT = 'patient-1';
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const METFORMIN = '11111111-1111-4111-8111-111111111111';
const LISINOPRIL = '22222222-2222-4222-8222-222222222222';

function prescription(id: string, name: string, strength: string, times: string[]): Prescription {
  return {
    id,
    prescription_id: id,
    patient_id: PATIENT,
    caregiver_id: null,
    medicine_name: name,
    strength,
    form: 'tablet',
    directions: 'Take 1 tablet by mouth',
    doctor_id: null,
    pharmacy_id: null,
    quantity: null,
    refills: null,
    start_date: '2026-03-01',
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
    version: 1,
    created_at: '2026-03-01T00:00:00Z',
    updated_at: '2026-03-01T00:00:00Z',
  };
}

/** A local wall-clock time on 10 March 2026 (the device's zone is the prescriptions' zone here). */
const at = (hour: number, minute = 0) => new Date(2026, 2, 10, hour, minute);

let db: KincareDb;

beforeAll(async () => {
  db = await openUserDb('medicine-schedule-screen');
});
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(at(12));
  who.role = 'Caregiver';
  who.permissions = ['ReadPrescription', 'EditPrescription'];
  await Promise.all([
    db.prescriptions.clear(),
    db.dose_marks.clear(),
    db.outbox.clear(),
    db.serverRows.clear(),
  ]);
  await db.prescriptions.bulkPut([
    prescription(METFORMIN, 'Metformin', '500 mg', ['08:00', '20:00']),
    prescription(LISINOPRIL, 'Lisinopril', '10 mg', ['08:00']),
  ]);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const slot = (time: string) => screen.findByTestId(`slot-${time}`);
const dose = async (time: string, label: string) =>
  within(await slot(time))
    .getAllByTestId('dose')
    .find((row) => row.textContent?.includes(label)) ?? document.body;

describe('TodaysSchedule', () => {
  it('groups the day by time, sorted, with each dose’s state in words and the slot’s state', async () => {
    await markDose(
      db,
      {
        patient_id: PATIENT,
        schedule_id: LISINOPRIL,
        date: '2026-03-10',
        time: '08:00',
        is_taken: true,
        marked_by: 'user-pat',
        marked_by_name: 'Pat Patient',
        label: 'Lisinopril 10 mg - 08:00',
      },
      at(8, 5),
    );
    render(<TodaysSchedule patientId={PATIENT} canMark variant="page" />);
    const morning = await slot('08:00');
    const slots = screen.getAllByTestId(/^slot-/).map((element) => element.dataset.testid);
    expect(slots).toEqual(['slot-08:00', 'slot-20:00']);
    await waitFor(() =>
      expect(within(morning).getByRole('heading', { level: 3 })).toHaveTextContent('8:00 AM1 missed'),
    );
    expect(await dose('08:00', 'Lisinopril 10 mg')).toHaveTextContent('Taken by Pat Patient at 8:05 AM');
    const missed = await dose('08:00', 'Metformin 500 mg');
    expect(missed).toHaveTextContent('Missed');
    expect(missed.dataset.state).toBe('missed');
    expect(missed).toHaveTextContent('Tablet · Take 1 tablet by mouth');
    expect(within(await slot('20:00')).getByRole('heading', { level: 3 })).toHaveTextContent(
      '8:00 PMUpcoming',
    );
  });

  it('marks a dose taken and not taken through the outbox, as the signed-in person, pressed state and all', async () => {
    render(<TodaysSchedule patientId={PATIENT} canMark variant="card" />);
    const row = await dose('08:00', 'Metformin 500 mg');
    const taken = within(row).getByRole('button', { name: 'Taken' });
    expect(taken).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(taken);
    await waitFor(async () =>
      expect(await dose('08:00', 'Metformin 500 mg')).toHaveTextContent('Taken by Cam Carer at 12:00 PM'),
    );
    expect(
      within(await dose('08:00', 'Metformin 500 mg')).getByRole('button', { name: 'Taken' }),
    ).toHaveAttribute('aria-pressed', 'true');
    const [mark] = await db.dose_marks.toArray();
    expect(mark).toMatchObject({
      patient_id: PATIENT,
      schedule_id: METFORMIN,
      date: '2026-03-10',
      time: '08:00',
      is_taken: true,
      marked_by: 'user-cam',
      marked_by_name: 'Cam Carer',
    });
    const queued = await db.outbox.toArray();
    expect(queued.map((entry) => [entry.resource, entry.op, entry.label])).toEqual([
      ['dose_marks', 'create', 'Metformin 500 mg - 08:00'],
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Metformin 500 mg, 8:00 AM: Marked as taken.');

    fireEvent.click(
      within(await dose('08:00', 'Metformin 500 mg')).getByRole('button', { name: 'Not taken' }),
    );
    await waitFor(async () =>
      expect(await dose('08:00', 'Metformin 500 mg')).toHaveTextContent(
        'Not taken (marked by Cam Carer at 12:00 PM)',
      ),
    );
    expect((await db.dose_marks.toArray()).map((row) => row.is_taken)).toEqual([false]);
    // Pressing the pressed one again changes nothing.
    fireEvent.click(
      within(await dose('08:00', 'Metformin 500 mg')).getByRole('button', { name: 'Not taken' }),
    );
    await act(async () => undefined);
    expect(await db.outbox.count()).toBe(2);
  });

  it('shows the schedule without Taken buttons to someone who may only read it', async () => {
    render(<TodaysSchedule patientId={PATIENT} canMark={false} variant="page" />);
    await slot('08:00');
    expect(screen.getAllByTestId('dose')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Taken' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Not taken' })).toBeNull();
  });

  it('marks an earlier day late through the day picker, and never a day still to come', async () => {
    render(<TodaysSchedule patientId={PATIENT} canMark variant="page" />);
    expect(await screen.findByTestId('schedule-day')).toHaveTextContent('Today, Tue, Mar 10, 2026');
    expect(screen.getByRole('button', { name: 'Today' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous day' }));
    expect(await screen.findByTestId('schedule-day')).toHaveTextContent('Yesterday, Mon, Mar 09, 2026');
    fireEvent.click(within(await dose('20:00', 'Metformin 500 mg')).getByRole('button', { name: 'Taken' }));
    await waitFor(async () => expect(await db.dose_marks.count()).toBe(1));
    expect((await db.dose_marks.toArray())[0]).toMatchObject({
      date: '2026-03-09',
      time: '20:00',
      is_taken: true,
    });
    await waitFor(async () =>
      expect(await dose('20:00', 'Metformin 500 mg')).toHaveTextContent('Taken by Cam Carer on'),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByTestId('schedule-day')).toHaveTextContent('Tomorrow, Wed, Mar 11, 2026');
    await slot('08:00');
    expect(screen.queryByRole('button', { name: 'Taken' })).toBeNull();
  });

  it('moves a dose from upcoming to due to missed as the minutes pass', async () => {
    await db.prescriptions.put(prescription(METFORMIN, 'Metformin', '500 mg', ['12:30']));
    await db.prescriptions.delete(LISINOPRIL);
    render(<TodaysSchedule patientId={PATIENT} canMark variant="card" />);
    await waitFor(async () => expect((await dose('12:30', 'Metformin')).dataset.state).toBe('upcoming'));
    act(() => vi.advanceTimersByTime(31 * 60_000));
    await waitFor(async () => expect(await dose('12:30', 'Metformin')).toHaveTextContent('Due now'));
    act(() => vi.advanceTimersByTime(61 * 60_000));
    await waitFor(async () => expect(await dose('12:30', 'Metformin')).toHaveTextContent('Missed'));
  });

  it('tells Home once, when the day’s doses and the week’s adherence are both on screen', async () => {
    // Home keeps its cards out of sight until then, so that this card never grows under the others.
    const drawn = vi.fn();
    render(<TodaysSchedule patientId={PATIENT} canMark variant="card" onDrawn={drawn} />);
    await screen.findByTestId('adherence-summary');
    await act(async () => undefined); // the effects of that render
    expect(drawn).toHaveBeenCalledTimes(1);
    expect(screen.getAllByTestId('dose')).toHaveLength(3);
  });

  it('says when there is nothing to take today, and leads to Prescriptions as this person may', async () => {
    await db.prescriptions.clear();
    render(<TodaysSchedule patientId={PATIENT} canMark variant="card" />);
    expect(await screen.findByTestId('schedule-empty')).toHaveTextContent('No medicines to take today.');
    expect(screen.getByRole('link', { name: 'Go to Prescriptions' })).toHaveAttribute(
      'href',
      '/caregiver/prescriptions',
    );
    cleanup();
    who.permissions = ['ReadPrescription', 'AddPrescription'];
    render(<TodaysSchedule patientId={PATIENT} canMark={false} variant="card" />);
    expect(await screen.findByRole('link', { name: 'Add a prescription' })).toBeTruthy();
    cleanup();
    who.role = 'Patient';
    who.permissions = [];
    render(<TodaysSchedule patientId={PATIENT} canMark variant="card" />);
    expect(await screen.findByRole('link', { name: 'Add a prescription' })).toHaveAttribute(
      'href',
      '/prescriptions',
    );
  });

  it('charts adherence over 7 or 30 days with a figure and a sentence; days with nothing due stay empty', async () => {
    // Started yesterday: five of the seven days had nothing due.
    await db.prescriptions.bulkPut([
      { ...prescription(METFORMIN, 'Metformin', '500 mg', ['08:00', '20:00']), start_date: '2026-03-09' },
      { ...prescription(LISINOPRIL, 'Lisinopril', '10 mg', ['08:00']), start_date: '2026-03-09' },
    ]);
    for (const [scheduleId, date, time] of [
      [METFORMIN, '2026-03-09', '08:00'],
      [METFORMIN, '2026-03-09', '20:00'],
      [LISINOPRIL, '2026-03-10', '08:00'],
    ] as const)
      await markDose(db, {
        patient_id: PATIENT,
        schedule_id: scheduleId,
        date,
        time,
        is_taken: true,
        marked_by: 'user-pat',
        marked_by_name: 'Pat',
        label: 'x',
      });
    render(<TodaysSchedule patientId={PATIENT} canMark variant="page" />);
    // Due by 12:00 today: yesterday's three and today's two at 08:00; three taken.
    await waitFor(() =>
      expect(screen.getByTestId('adherence-summary')).toHaveTextContent(
        '60% of doses taken in the last 7 days (3 of 5)',
      ),
    );
    expect(screen.getByTestId('adherence-figure')).toHaveTextContent('60%');
    const chart = screen.getByTestId('adherence-chart');
    expect(chart.querySelectorAll('rect')).toHaveLength(2);
    expect(chart.querySelectorAll('[data-due="0"]')).toHaveLength(5);
    expect(
      within(screen.getByRole('group', { name: 'Period' })).getByRole('button', { name: '7 days' }),
    ).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() =>
      expect(screen.getByTestId('adherence-summary')).toHaveTextContent('in the last 30 days (3 of 5)'),
    );
    expect(screen.getByTestId('adherence-chart').querySelectorAll('[data-due="0"]')).toHaveLength(28);
  });

  it('says plainly that this browser cannot show reminders (no service worker here)', async () => {
    render(<TodaysSchedule patientId={PATIENT} canMark variant="page" />);
    expect(await screen.findByTestId('reminders-support')).toHaveTextContent(REMINDER_MESSAGES.unsupported);
    expect(screen.getByRole('switch', { name: 'Reminders on this device' })).toBeDisabled();
  });
});

describe('the schedule’s words', () => {
  const base = { marked_by_name: null, marked_at: null };
  it('names each state, and who marked a dose and when, in the prescription’s zone', () => {
    expect(doseBadge({ ...base, state: 'missed' }, '2026-03-10', 'UTC')).toEqual({
      text: 'Missed',
      tone: 'danger',
    });
    expect(doseBadge({ ...base, state: 'due' }, '2026-03-10', 'UTC').text).toBe('Due now');
    expect(doseBadge({ ...base, state: 'upcoming' }, '2026-03-10', 'UTC').text).toBe('Upcoming');
    expect(doseBadge({ ...base, state: 'not-taken' }, '2026-03-10', 'UTC').text).toBe('Not taken');
    expect(
      doseBadge(
        { state: 'taken', marked_by_name: 'Alex', marked_at: '2026-03-10T13:05:00Z' },
        '2026-03-10',
        'Europe/Berlin',
      ),
    ).toEqual({ text: 'Taken by Alex at 2:05 PM', tone: 'success' });
    expect(
      doseBadge(
        { state: 'taken', marked_by_name: 'Alex', marked_at: '2026-03-11T07:00:00Z' },
        '2026-03-10',
        'UTC',
      ).text,
    ).toBe('Taken by Alex on Mar 11 at 7:00 AM');
  });

  it('sums up a slot with the worst news first', () => {
    const items = (...states: string[]) => ({
      items: states.map((state) => ({ dose: { state } })) as Parameters<typeof slotSummary>[0]['items'],
    });
    expect(slotSummary(items('taken'))).toBe('Taken');
    expect(slotSummary(items('taken', 'taken'))).toBe('All taken');
    expect(slotSummary(items('taken', 'missed', 'missed'))).toBe('2 missed');
    expect(slotSummary(items('due', 'taken'))).toBe('Due now');
    expect(slotSummary(items('upcoming', 'upcoming'))).toBe('Upcoming');
    expect(slotSummary(items('taken', 'not-taken'))).toBe('1 of 2 taken');
  });

  it('names days and adherence as people say them', () => {
    expect(dayLabel('2026-03-10', '2026-03-10')).toBe('Today, Tue, Mar 10, 2026');
    expect(dayLabel('2026-03-11', '2026-03-10')).toBe('Tomorrow, Wed, Mar 11, 2026');
    expect(dayLabel('2025-12-31', '2026-03-10')).toBe('Wed, Dec 31, 2025');
    expect(adherenceSummary({ due: 28, taken: 24, percent: 86 }, 7)).toBe(
      '86% of doses taken in the last 7 days (24 of 28)',
    );
    expect(adherenceSummary({ due: 0, taken: 0, percent: null }, 30)).toBe(
      'No doses were due in the last 30 days.',
    );
  });
});
