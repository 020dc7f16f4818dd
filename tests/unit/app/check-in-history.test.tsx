import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { CheckInEntry, CheckInRecord, CheckInStatus } from '../../../src/domain/check-in';
import { checkInId } from '../../../src/domain/check-in-steps';
import { deviceDay } from '../../../src/domain/clock';
import { yOf, PLOT, CHART_HEIGHT } from '../../../src/app/ui/chart/chart-geometry';
import { medicalHistoryId } from '../../../src/domain/medical-history';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { CheckInHistorySection, lastDays } from '../../../src/app/features/check-in/check-in-history-section';
import { findChart } from './charts-on-screen';

// The check-in charts with the medical history: 30 days read from the replica, each
// chart drawing what was answered that day (mood 1-5, hours of sleep, pain, PHQ-2 total) and leaving a
// gap, not a zero, for a day with no check-in.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';
let db: KincareDb;

beforeAll(async () => {
  db = await openUserDb('check-in-history');
});
beforeEach(async () => {
  await db.check_ins.clear();
  await db.medical_history.clear();
  await db.outbox.clear();
  await db.serverRows.clear();
});
afterEach(() => cleanup());

async function stored(day: string, status: CheckInStatus, answers: CheckInEntry[]): Promise<CheckInRecord> {
  return { id: await checkInId(PATIENT, day), patient_id: PATIENT, version: 1, day, status, answers };
}

const valuesOf = (figure: HTMLElement) =>
  within(figure)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelectorAll('td')[1]?.textContent);

describe('the last 30 days of check-ins', () => {
  it('lists 30 device days, oldest first, ending today, across a month end', () => {
    const days = lastDays(30, new Date(2026, 2, 15, 9));
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-02-14');
    expect(days[29]).toBe('2026-03-15');
    expect(lastDays(30).at(-1)).toBe(deviceDay());
  });

  it('says so when there is none', async () => {
    render(<CheckInHistorySection patientId={PATIENT} viewer="patient" />);
    await screen.findByText('No check-ins in the last 30 days.');
    expect(screen.queryAllByTestId('chart')).toHaveLength(0);
  });

  it('draws each answered day where its value lies, and gaps for days without', async () => {
    const [, , , fourthLast, , yesterday, today] = lastDays(7);
    await db.check_ins.bulkPut([
      await stored(today ?? '', 'completed', [
        { question_id: 'mood', answer: 'very_good' },
        { question_id: 'sleep', answer: '8' },
        { question_id: 'pain', answer: 0 },
        { question_id: 'symptoms', answer: ['none'] },
        { question_id: 'medicines', answer: 'yes' },
        { question_id: 'phq2_interest', answer: 'several_days' },
        { question_id: 'phq2_down', answer: 'more_than_half' },
        { question_id: 'phq2_follow_up', answer: 'yes' },
      ]),
      await stored(yesterday ?? '', 'skipped', [{ question_id: 'mood', answer: 'bad' }]),
      await stored(fourthLast ?? '', 'in_progress', [
        { question_id: 'mood', answer: 'okay' },
        { question_id: 'sleep', answer: '4' },
        { question_id: 'pain', answer: 6 },
      ]),
      // Another patient's day is not this patient's.
      {
        ...(await stored(today ?? '', 'completed', [{ question_id: 'mood', answer: 'good' }])),
        id: 'x',
        patient_id: 'other',
      },
    ]);
    render(<CheckInHistorySection patientId={PATIENT} viewer="patient" />);
    await screen.findByText('Checked in on 3 of the last 30 days.');

    const mood = await findChart(/^Mood/);
    expect(valuesOf(mood).slice(-7)).toEqual(['No value', 'No value', 'No value', '3', 'No value', '1', '5']);
    expect(
      valuesOf(mood)
        .slice(0, 23)
        .every((value) => value === 'No value'),
    ).toBe(true);
    // Three points, on a 1-5 scale: today's Very good at the top, yesterday's Bad on the floor.
    const points = mood.querySelectorAll('circle');
    expect(points).toHaveLength(3);
    const scale = { min: 1, max: 5 };
    expect(Number(points[2]?.getAttribute('cy'))).toBeCloseTo(yOf(5, scale));
    expect(Number(points[2]?.getAttribute('cy'))).toBeCloseTo(PLOT.top);
    expect(Number(points[1]?.getAttribute('cy'))).toBeCloseTo(yOf(1, scale));
    expect(Number(points[0]?.getAttribute('cy'))).toBeCloseTo(yOf(3, scale));

    const sleep = await findChart(/^Sleep/);
    expect(valuesOf(sleep).slice(-7)).toEqual([
      'No value',
      'No value',
      'No value',
      '4',
      'No value',
      'No value',
      '8',
    ]);
    const bars = sleep.querySelectorAll('rect');
    expect(bars).toHaveLength(2);
    const plotHeight = CHART_HEIGHT - PLOT.top - PLOT.bottom;
    expect(Number(bars[0]?.getAttribute('height'))).toBeCloseTo((plotHeight * 4) / 10);
    expect(Number(bars[1]?.getAttribute('height'))).toBeCloseTo((plotHeight * 8) / 10);

    const pain = await findChart(/^Pain/);
    expect(valuesOf(pain).slice(-7)).toEqual([
      'No value',
      'No value',
      'No value',
      '6',
      'No value',
      'No value',
      '0',
    ]);
    const phq2 = await findChart(/^PHQ-2/);
    expect(valuesOf(phq2).slice(-1)).toEqual(['3']);
    expect(phq2.querySelectorAll('rect')).toHaveLength(1);
    expect(phq2.querySelector('svg')?.getAttribute('aria-label')).toContain('latest 3 out of 6');
  });
});

describe('the mood screening (PHQ-2), the patient’s to share', () => {
  const SWITCH = /Share my mood screening \(PHQ-2\) answers with caregivers who can read my medical history/;
  const screened = async () => {
    const [today] = lastDays(1);
    await db.check_ins.put(
      await stored(today ?? '', 'completed', [
        { question_id: 'mood', answer: 'good' },
        { question_id: 'phq2_interest', answer: 'nearly_every_day' },
        { question_id: 'phq2_down', answer: 'nearly_every_day' },
        { question_id: 'phq2_follow_up', answer: 'yes' },
      ]),
    );
  };
  const history = async (share: boolean) => {
    const id = await medicalHistoryId(PATIENT);
    await db.medical_history.put({ id, patient_id: PATIENT, version: 3, share_mood_screening: share });
  };
  // Holds the medical history's table (a write under way) until the returned function is called: the
  // check-ins are read meanwhile, so the charts are drawn before the sharing choice is known, as on a busy
  // device.
  let releaseHeld = async () => {};
  afterEach(() => releaseHeld()); // a failed test lets go of the table too
  const holdHistory = () => {
    let done = false;
    const held = db.transaction('rw', db.medical_history, async () => {
      while (!done) await db.medical_history.count();
    });
    releaseHeld = async () => {
      done = true;
      await held;
    };
    return releaseHeld;
  };
  const chartTitles = async () =>
    (await screen.findAllByTestId('chart')).map((figure) => figure.querySelector('figcaption')?.textContent);

  it('a caregiver sees no PHQ-2 chart while it is not shared, even from answers the device still holds', async () => {
    await screened();
    await history(false);
    const releaseHistory = holdHistory();
    render(<CheckInHistorySection patientId={PATIENT} viewer="caregiver" />);
    await screen.findByText('Checked in on 1 of the last 30 days.');
    // Not even for a moment, while the sharing choice is still being read.
    expect(document.body.textContent).not.toMatch(/PHQ|mood screening/i);
    await releaseHistory();
    const titles = await chartTitles();
    expect(titles).toHaveLength(3);
    expect(titles.join(' ')).not.toMatch(/PHQ/);
    expect(document.body.textContent).not.toMatch(/PHQ|mood screening/i);
    // No switch for a caregiver: the choice is the patient's.
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('a caregiver with no copy of the history yet sees none either', async () => {
    await screened();
    const releaseHistory = holdHistory();
    render(<CheckInHistorySection patientId={PATIENT} viewer="caregiver" />);
    await screen.findByText('Checked in on 1 of the last 30 days.');
    expect(document.body.textContent).not.toMatch(/PHQ|mood screening/i);
    await releaseHistory();
    expect((await chartTitles()).join(' ')).not.toMatch(/PHQ/);
  });

  it('a caregiver sees it once the patient shares it', async () => {
    await screened();
    await history(true);
    render(<CheckInHistorySection patientId={PATIENT} viewer="caregiver" />);
    const phq2 = await findChart(/^PHQ-2/);
    expect(valuesOf(phq2).slice(-1)).toEqual(['6']);
  });

  it('the patient sees their own, and turns the sharing on and off through the outbox', async () => {
    await screened();
    render(<CheckInHistorySection patientId={PATIENT} viewer="patient" />);
    await findChart(/^PHQ-2/);
    const toggle = await screen.findByRole('switch', { name: SWITCH });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    screen.getByText('Off: they see your other check-in answers, but not these.');

    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({
      resource: 'medical_history',
      entityId: await medicalHistoryId(PATIENT),
      op: 'create',
      payload: { share_mood_screening: true, patient_id: PATIENT },
    });

    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(2);
    expect(entries[1]?.payload).toMatchObject({ share_mood_screening: false });
  });
});
