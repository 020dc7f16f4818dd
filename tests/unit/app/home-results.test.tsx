import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import type { LabReport } from '../../../src/domain/lab-reports';
import type * as LabReportsOf from '../../../src/app/features/dashboard/use-lab-reports-of';
import type { LabResult } from '../../../src/domain/lab-results';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { flagSummary, latestReports } from '../../../src/app/features/dashboard/latest-results-data';

// Home's 'Latest results' card on the device's tables: the newest reports with their
// type and date, values outside the reference range first and named High or Low in words, the honest
// empty state, a live update when a report lands, and a caregiver without ReadLabReport shown nothing of
// the patient's results. The check-in and Fitbit cards (other features' content) get only their shells and
// permissions checked here, with stand-ins for the content.

const who = vi.hoisted(() => ({
  role: 'Patient' as 'Caregiver' | 'Patient',
  permissions: [] as string[],
  selected: null as string | null,
}));

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));
vi.mock('../../../src/app/shell/use-session', () => ({
  useSession: () => ({ token: 't', role: who.role, userId: 'user-1' }),
  useProfile: () => ({
    id: 'user-1',
    name: 'Hana Home',
    patient_id: who.role === 'Patient' ? PATIENT : null,
  }),
}));
vi.mock('../../../src/app/shell/use-caregiver-permissions', () => ({
  useCaregiverPermissions: () => who.permissions,
  useCaregiverPermissionsRead: () => who.permissions,
}));
vi.mock('../../../src/app/shell/use-selected-patient', () => ({
  useSelectedPatientId: () => who.selected,
}));
// Other features' cards: stand-ins that say whose card they are. The schedule's stand-in says it has drawn
// (as the real one does once it has read the day's doses), or not yet, or throws as a chunk that failed.
const scheduleLoads = vi.hoisted(() => ({ count: 0, behaviour: 'draws' as 'draws' | 'waits' | 'throws' }));
vi.mock('../../../src/app/features/medicines/load-todays-schedule', async () => {
  const { useEffect } = await import('react');
  function StandInSchedule({ onDrawn }: { onDrawn?: () => void }) {
    if (scheduleLoads.behaviour === 'throws') throw new Error('the chunk did not load');
    useEffect(() => {
      if (scheduleLoads.behaviour === 'draws') onDrawn?.();
    }, [onDrawn]);
    return <p>Stand-in schedule</p>;
  }
  return {
    loadTodaysSchedule: () => {
      scheduleLoads.count++;
      return Promise.resolve({ TodaysSchedule: StandInSchedule });
    },
  };
});
vi.mock('../../../src/app/features/check-in/check-in-home-card', () => ({
  CheckInHomeCard: ({ patientId }: { patientId: string }) => <p>Stand-in check-in of {patientId}</p>,
}));
vi.mock('../../../src/app/features/fitbit/fitbit-home-card', () => ({
  FitbitHomeCard: ({ patientId }: { patientId: string }) => <p>Stand-in Fitbit of {patientId}</p>,
}));

// The device's answer of lab reports, held back in one test (Home draws no card before it).
const reportsRead = vi.hoisted(() => ({ held: false }));
vi.mock('../../../src/app/features/dashboard/use-lab-reports-of', async (importOriginal) => {
  const real = await importOriginal<typeof LabReportsOf>();
  return {
    useLabReportsOf: (patientId: string | null) => {
      const answer = real.useLabReportsOf(patientId);
      return reportsRead.held ? undefined : answer;
    },
  };
});

const { DashboardPage, SCHEDULE_WAIT_MS } = await import('../../../src/app/screens/home/dashboard-page');

const PATIENT = '6f1c1a52-7d55-4c0e-9d43-0b6f1f0f0a01';
const OTHER_PATIENT = '6f1c1a52-7d55-4c0e-9d43-0b6f1f0f0a09';

const row = (name: string, value: string, flag: LabResult['flag'] = '', range = '70-99'): LabResult => ({
  name,
  value,
  unit: 'mg/dL',
  flag,
  reference_range: range,
});

function report(id: string, fields: Partial<LabReport> = {}): LabReport {
  return {
    id,
    patient_id: PATIENT,
    report_type: 'Lipid Panel',
    report_date: '2026-03-14',
    doctor_id: null,
    doctor_name: null,
    report_ocr: '',
    results: [],
    attachment_key: 'lab/0123456789abcdef0123456789abcdef.pdf',
    caregiver_id: null,
    version: 1,
    created_at: '2026-03-15T10:00:00.000Z',
    updated_at: '2026-03-15T10:00:00.000Z',
    ...fields,
  };
}

const card = (id: string) => screen.getByTestId(`home-${id}`);
/** Whether Home's cards are shown (they are laid out, invisible, while Home waits for the schedule). */
const cardsShown = () => {
  const grid = card('medicines').parentElement;
  return !grid?.classList.contains('invisible') && grid?.getAttribute('aria-busy') === 'false';
};
/** Home, once its cards are drawn (together, when the device's tables have answered). */
async function renderHome() {
  render(<DashboardPage />);
  await screen.findByTestId('home-sync');
}

let db: KincareDb;
beforeAll(async () => {
  db = await openUserDb('home-results');
});
beforeEach(async () => {
  who.role = 'Patient';
  who.permissions = [];
  who.selected = null;
  scheduleLoads.behaviour = 'draws';
  reportsRead.held = false;
  await Promise.all([
    db.lab_reports.clear(),
    db.outbox.clear(),
    db.appointments.clear(),
    db.prescriptions.clear(),
  ]);
});
afterEach(() => {
  cleanup();
});

describe('which results Home shows', () => {
  it('takes the newest reports by report date, then by when they were added, flagged rows first', () => {
    const summaries = latestReports(
      [
        report('old', { report_date: '2025-12-01', results: [row('Glucose', '300', 'H')] }),
        report('same-day-earlier', { report_date: '2026-03-14', created_at: '2026-03-14T08:00:00.000Z' }),
        report('newest', {
          report_date: '2026-03-14',
          created_at: '2026-03-15T10:00:00.000Z',
          results: [
            row('Cholesterol', '180', '', '< 200'),
            row('HDL', '35', 'L', '>= 40'),
            row('Triglycerides', '140', '', '< 150'),
            row('LDL', '162', 'H', '< 130'),
            row('VLDL', '28', '', '5-40'),
            row('Non-HDL', '145', '', '< 160'),
          ],
        }),
      ],
      2,
      4,
    );
    expect(summaries.map((summary) => summary.report.id)).toEqual(['newest', 'same-day-earlier']);
    const [newest] = summaries;
    expect(newest?.shown.map((shown) => shown.name)).toEqual(['HDL', 'LDL', 'Cholesterol', 'Triglycerides']);
    expect(newest?.hidden).toBe(2);
    expect(newest?.outOfRange).toBe(2);
  });

  it('keeps every flagged row before in-range ones even when they do not all fit', () => {
    const [only] = latestReports(
      [report('a', { results: [row('A', '1'), row('B', '2', 'H'), row('C', '3', 'L'), row('D', '4', 'H')] })],
      1,
      2,
    );
    expect(only?.shown.map((shown) => shown.flag)).toEqual(['H', 'L']);
    expect(only?.hidden).toBe(2);
  });

  it('says in words how many results are out of range', () => {
    expect(flagSummary({ outOfRange: 2, total: 6 })).toBe('2 of 6 results are outside the reference range.');
    expect(flagSummary({ outOfRange: 1, total: 1 })).toBe('1 of 1 result is outside the reference range.');
    expect(flagSummary({ outOfRange: 0, total: 6 })).toBe('None of the 6 results is flagged High or Low.');
    expect(flagSummary({ outOfRange: 0, total: 0 })).toContain('No results were saved with this report yet.');
  });
});

describe('the Latest results card', () => {
  it('shows the newest report’s type, date and results, a high and a low value named in words', async () => {
    await db.lab_reports.bulkPut([
      report('old', {
        report_type: 'Thyroid Panel',
        report_date: '2025-11-02',
        results: [row('TSH', '2.1', '', '0.4-4.0')],
      }),
      report('new', {
        report_type: 'Basic Metabolic Panel',
        report_date: '2026-03-14',
        results: [
          row('Sodium', '140', '', '135-145'),
          row('Glucose', '105', 'H'),
          row('Potassium', '3.1', 'L', '3.5-5.1'),
        ],
      }),
      // Another patient's report on the same device is never shown.
      report('other', {
        patient_id: OTHER_PATIENT,
        report_type: 'Not this patient',
        report_date: '2026-03-20',
      }),
    ]);
    await renderHome();
    const results = card('results');
    // Drawn with the other cards, not after them: a card that grew later pushed the ones below it down.
    expect(within(results).getAllByTestId('home-result-report')).toHaveLength(2);
    const [newest, older] = within(results).getAllByTestId('home-result-report');
    expect(within(newest!).getByRole('heading', { level: 3 }).textContent).toBe('Basic Metabolic Panel');
    expect(newest!.textContent).toContain('Report date Sat, Mar 14, 2026');
    expect(newest!.textContent).toContain('2 of 3 results are outside the reference range.');
    const rows = within(newest!).getAllByTestId('home-result');
    expect(rows.map((item) => item.textContent)).toEqual([
      'Glucose105 mg/dLHighReference range 70-99',
      'Potassium3.1 mg/dLLowReference range 3.5-5.1',
      'Sodium140 mg/dLReference range 135-145',
    ]);
    expect(rows.map((item) => item.getAttribute('data-flag'))).toEqual(['H', 'L', null]);
    expect(within(older!).getByRole('heading', { level: 3 }).textContent).toBe('Thyroid Panel');
    expect(older!.textContent).toContain('The one result is not flagged High or Low.');
    expect(results.textContent).not.toContain('Not this patient');
    expect(within(results).getByRole('link', { name: 'See all lab reports' }).getAttribute('href')).toBe(
      '/lab-report',
    );
  });

  it('is drawn with the other cards: none of them before the device has answered for the lab reports', async () => {
    await db.lab_reports.put(report('r', { results: [row('Glucose', '250', 'H')] }));
    reportsRead.held = true;
    const { rerender } = render(<DashboardPage />);
    expect(await screen.findByText('Checking your health data...')).toBeTruthy();
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByTestId('home-sync')).toBeNull();
    reportsRead.held = false;
    rerender(<DashboardPage />);
    expect(within(await screen.findByTestId('home-results')).getAllByTestId('home-result')).toHaveLength(1);
  });

  it('is honest when there is no report yet, and fills in when one is saved while Home is open', async () => {
    await renderHome();
    const results = card('results');
    await waitFor(() => expect(results.textContent).toContain('No lab reports yet.'));
    expect(within(results).getByRole('link', { name: 'Go to Lab Reports' }).getAttribute('href')).toBe(
      '/lab-report',
    );
    await db.lab_reports.put(report('typed', { results: [] }));
    await waitFor(() => expect(results.textContent).toContain('No results were saved with this report yet.'));
    expect(within(results).queryAllByTestId('home-result')).toHaveLength(0);
    await db.lab_reports.update('typed', { results: [row('LDL', '171', 'H', '< 130')] });
    await waitFor(() => expect(within(results).getAllByTestId('home-result')).toHaveLength(1));
    expect(results.textContent).toContain('High');
  });

  it('shows a caregiver the selected patient’s results with ReadLabReport', async () => {
    who.role = 'Caregiver';
    who.selected = PATIENT;
    who.permissions = ['ReadLabReport'];
    await db.lab_reports.put(report('r', { results: [row('Glucose', '250', 'H')] }));
    await renderHome();
    const results = card('results');
    await waitFor(() => expect(within(results).getAllByTestId('home-result')).toHaveLength(1));
    expect(results.textContent).toContain('High');
    expect(within(results).getByRole('link', { name: 'See all lab reports' }).getAttribute('href')).toBe(
      '/caregiver/lab-report',
    );
  });

  it('shows a caregiver without ReadLabReport nothing of the results, only why', async () => {
    who.role = 'Caregiver';
    who.selected = PATIENT;
    who.permissions = ['ReadPrescription', 'ReadAppointment', 'ReadMedicalHistory'];
    await db.lab_reports.put(
      report('r', { report_type: 'Secret Panel', results: [row('Glucose', '250', 'H')] }),
    );
    await renderHome();
    const results = card('results');
    // The other cards have rendered their content by now, so the results card had its chance too.
    await screen.findByText(`Stand-in check-in of ${PATIENT}`);
    await screen.findByText(`Stand-in Fitbit of ${PATIENT}`);
    expect(results.textContent).toContain('The patient has not given you access to this section.');
    expect(results.textContent).not.toContain('Secret Panel');
    expect(results.textContent).not.toContain('Glucose');
    expect(within(results).queryByRole('link')).toBeNull();
  });

  it('asks a caregiver with no selected patient to select one', async () => {
    who.role = 'Caregiver';
    await renderHome();
    expect(card('results').textContent).toContain('Select a patient to see their newest lab results.');
    expect(card('check-in').textContent).toContain('Select a patient to see their daily check-ins.');
    expect(card('fitbit').textContent).toContain('Select a patient to see their Fitbit summary.');
  });
});

describe('the medicines card', () => {
  // Only the fields the card counts by: the schedule itself is a stand-in here.
  const prescriptionOf = (id: string, patientId: string) => ({ id, patient_id: patientId }) as never;

  it('says at once that nothing is due when the device holds no prescription of the patient, without loading the schedule', async () => {
    await db.prescriptions.put(prescriptionOf('rx-other', OTHER_PATIENT)); // another patient's counts for nothing
    await renderHome();
    const medicines = within(card('medicines'));
    expect(medicines.getByText('No medicines to take today.')).toBeTruthy();
    expect(medicines.getByRole('link', { name: 'Add a prescription' }).getAttribute('href')).toBe(
      '/prescriptions',
    );
    expect(medicines.queryByText('Stand-in schedule')).toBeNull();
    expect(scheduleLoads.count).toBe(0);
    // Nothing to wait for: the cards show with the tables' answers.
    expect(cardsShown()).toBe(true);
  });

  it('loads the schedule once the patient has a prescription on the device', async () => {
    await db.prescriptions.put(prescriptionOf('rx-1', PATIENT));
    await renderHome();
    expect(await within(card('medicines')).findByText('Stand-in schedule')).toBeTruthy();
    expect(scheduleLoads.count).toBe(1);
  });

  it('keeps the cards out of sight, in their places, until the schedule has drawn its doses', async () => {
    // Drawn before the schedule, the cards below it moved down the screen by its height once it came.
    await db.prescriptions.put(prescriptionOf('rx-1', PATIENT));
    scheduleLoads.behaviour = 'waits';
    await renderHome();
    await within(card('medicines')).findByText('Stand-in schedule');
    expect(cardsShown()).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('Checking your health data...');
    cleanup();

    scheduleLoads.behaviour = 'draws';
    await renderHome();
    await waitFor(() => expect(cardsShown()).toBe(true));
    expect(screen.queryByText('Checking your health data...')).toBeNull();
  });

  it('shows the cards after a few seconds all the same when the schedule does not come', async () => {
    await db.prescriptions.put(prescriptionOf('rx-1', PATIENT));
    scheduleLoads.behaviour = 'waits';
    const started = Date.now();
    await renderHome();
    expect(cardsShown()).toBe(false);
    await waitFor(() => expect(cardsShown()).toBe(true), { timeout: SCHEDULE_WAIT_MS + 2000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(SCHEDULE_WAIT_MS - 100);
  });

  it('shows the cards when the schedule cannot be shown, the medicines card saying so', async () => {
    await db.prescriptions.put(prescriptionOf('rx-1', PATIENT));
    scheduleLoads.behaviour = 'throws';
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    await renderHome();
    await waitFor(() => expect(cardsShown()).toBe(true));
    expect(card('medicines').textContent).toContain('This card could not be shown. Reload to try again.');
    expect(card('appointments').textContent).toContain('No upcoming appointments.');
    vi.mocked(console.error).mockRestore();
  });
});

describe('the Check-in and Fitbit cards', () => {
  it('show their features’ content for the patient', async () => {
    await renderHome();
    expect(within(card('check-in')).getByRole('heading', { name: 'Check-in' })).toBeTruthy();
    expect(within(card('fitbit')).getByRole('heading', { name: 'Fitbit' })).toBeTruthy();
    expect(await within(card('check-in')).findByText(`Stand-in check-in of ${PATIENT}`)).toBeTruthy();
    expect(await within(card('fitbit')).findByText(`Stand-in Fitbit of ${PATIENT}`)).toBeTruthy();
  });

  it('show a caregiver without ReadMedicalHistory nothing of them', async () => {
    who.role = 'Caregiver';
    who.selected = PATIENT;
    who.permissions = ['ReadLabReport'];
    await renderHome();
    await waitFor(() => expect(card('results').textContent).toContain('No lab reports yet.'));
    for (const id of ['check-in', 'fitbit']) {
      expect(card(id).textContent).toContain('The patient has not given you access to this section.');
      expect(card(id).textContent).not.toContain('Stand-in');
    }
  });
});
