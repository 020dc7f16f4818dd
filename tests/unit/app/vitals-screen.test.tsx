// The Vitals screen on the device's table: a reading added in two taps (the kind, then Save) with its
// first number focused, checked with the domain's messages only once something was typed and left (or the
// form was sent), saved through the outbox and marked waiting; readings shown in the person's units with
// the unit always said and the unit they were entered in; High and Low in words; who entered a reading;
// edits that send only what changed; a caregiver without Edit or Delete gets no such buttons; the charts
// and the person's units and targets.

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DateTime } from 'luxon';
import { VITAL_MESSAGES, type Vital } from '../../../src/domain/vitals';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { findChart } from './charts-on-screen';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const { VitalsPage } = await import('../../../src/app/features/vitals/vitals-page');
const { SAVED_OFFLINE } = await import('../../../src/app/features/vitals/reading-sheet');
const { NOT_A_NUMBER } = await import('../../../src/app/features/vitals/vital-form');

const PATIENT = '7d1f1c1e-0000-4000-8000-0000000000a1';
const CAREGIVER = '7d1f1c1e-0000-4000-8000-0000000000c1';
const ALL = { add: true, edit: true, delete: true };
let db: KincareDb;

beforeAll(async () => {
  db = await openUserDb('vitals-screen');
});
beforeEach(async () => {
  await Promise.all([db.vitals.clear(), db.outbox.clear(), db.serverRows.clear(), db.careApproved.clear()]);
  localStorage.clear();
  toasts.success.mockClear();
});
afterEach(cleanup);

/** A reading as the server would have sent it, taken `hoursAgo` on this device's clock. */
function stored(fields: Partial<Vital> & Pick<Vital, 'kind' | 'unit'>, hoursAgo = 1): Vital {
  return {
    id: crypto.randomUUID(),
    patient_id: PATIENT,
    version: 1,
    caregiver_id: null,
    value: null,
    systolic: null,
    diastolic: null,
    fasting: null,
    note: null,
    measured_at: DateTime.now().minus({ hours: hoursAgo }).toISO() ?? '',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...fields,
  };
}

const closed = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
const readingsList = () => screen.findByTestId('vital-readings');
const quickAdd = () => screen.findByRole('group', { name: 'Add a reading' });

describe('adding a reading', () => {
  it('takes two taps: the kind opens the form on its first number, Save keeps it (waiting to send)', async () => {
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    expect(await screen.findByText(/^No readings yet\./)).toBeTruthy();
    fireEvent.click(within(await quickAdd()).getByRole('button', { name: 'Blood pressure' }));
    const form = await screen.findByRole('form', { name: 'New blood pressure reading' });
    const top = within(form).getByRole('textbox', { name: 'Top number (systolic)' });
    await waitFor(() => expect(document.activeElement).toBe(top));
    // The unit is in sight beside each number, and 'now' is the time.
    expect(
      within(form)
        .getAllByTestId('value-unit')
        .map((unit) => unit.textContent),
    ).toEqual(['mmHg', 'mmHg']);
    expect(form.textContent).toContain('Taken: now');
    fireEvent.change(top, { target: { value: '152' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Bottom number (diastolic)' }), {
      target: { value: '95' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Note (optional)' }), {
      target: { value: 'After coffee' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await closed();
    expect(toasts.success).toHaveBeenCalledWith(VITAL_MESSAGES.saved);

    const [row] = await db.vitals.toArray();
    expect(row).toMatchObject({
      kind: 'blood_pressure',
      unit: 'mmHg',
      systolic: 152,
      diastolic: 95,
      value: null,
      fasting: null,
      note: 'After coffee',
      caregiver_id: null,
      version: 0,
    });
    // Dated now, with this device's offset (the patient's clock).
    expect(row?.measured_at).toMatch(/([+-]\d{2}:\d{2}|Z)$/);
    expect(Math.abs(Date.parse(row?.measured_at ?? '') - Date.now())).toBeLessThan(60_000);
    expect(await db.outbox.count()).toBe(1);

    const item = within(await readingsList()).getByRole('listitem');
    expect(item.textContent).toContain('152/95 mmHg');
    expect(item.textContent).toContain('After coffee');
    expect(within(item).getByText('High')).toBeTruthy();
    expect(within(item).getByText('Waiting to send')).toBeTruthy();
    expect(within(item).getByText(/^Today, \d{1,2}:\d{2}( [AP]M)?$/)).toBeTruthy();
    expect(within(item).queryByTestId('entered-by')).toBeNull();
  });

  it('says a reading saved offline waits on this device', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(within(await quickAdd()).getByRole('button', { name: 'Pulse' }));
    const form = await screen.findByRole('form', { name: 'New pulse reading' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Pulse' }), { target: { value: '64' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await closed();
    expect(toasts.success).toHaveBeenCalledWith(SAVED_OFFLINE);
    online.mockRestore();
  });

  it('shows no error before anything is typed; each field’s own message once it is left or the form sent', async () => {
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(within(await quickAdd()).getByRole('button', { name: 'Blood pressure' }));
    const form = await screen.findByRole('form', { name: 'New blood pressure reading' });
    const top = within(form).getByRole('textbox', { name: 'Top number (systolic)' });
    const bottom = within(form).getByRole('textbox', { name: 'Bottom number (diastolic)' });
    // Leaving the empty fields says nothing.
    fireEvent.blur(top);
    fireEvent.blur(bottom);
    expect(within(form).queryAllByRole('alert')).toHaveLength(0);
    // A number out of what the unit reads: its message once the field is left, tied to the field.
    fireEvent.change(top, { target: { value: '1200' } });
    expect(within(form).queryAllByRole('alert')).toHaveLength(0);
    fireEvent.blur(top);
    const message = 'The top number (systolic) must be between 20 and 300 mmHg. Please check the number.';
    expect(within(form).getByRole('alert').textContent).toBe(message);
    expect(top.getAttribute('aria-invalid')).toBe('true');
    expect(top.getAttribute('aria-describedby')).toContain(within(form).getByRole('alert').id);
    // Sent: the empty bottom number says so too, and nothing is saved.
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(VITAL_MESSAGES.pressureMissing)).toBeTruthy();
    fireEvent.change(top, { target: { value: '120' } });
    fireEvent.change(bottom, { target: { value: '130' } });
    expect(await within(form).findByText(VITAL_MESSAGES.diastolicAboveSystolic)).toBeTruthy();
    fireEvent.change(bottom, { target: { value: 'eighty' } });
    expect(await within(form).findByText(NOT_A_NUMBER)).toBeTruthy();
    // A time in the future.
    fireEvent.change(bottom, { target: { value: '80' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change time' }));
    const when = within(form).getByLabelText('When it was taken');
    fireEvent.change(when, {
      target: { value: DateTime.now().plus({ days: 1 }).toFormat("yyyy-MM-dd'T'HH:mm") },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(VITAL_MESSAGES.measuredInFuture)).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.vitals.count()).toBe(0);
  });

  it('keeps a reading in the unit it was entered in, the unit switchable, fasting for glucose', async () => {
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(within(await quickAdd()).getByRole('button', { name: 'Blood glucose' }));
    const form = await screen.findByRole('form', { name: 'New blood glucose reading' });
    // en-US: mg/dL until the person switches.
    expect(within(form).getByTestId('value-unit').textContent).toBe('mg/dL');
    fireEvent.click(within(form).getByRole('radio', { name: 'mmol/L' }));
    expect(within(form).getByTestId('value-unit').textContent).toBe('mmol/L');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Blood glucose' }), {
      target: { value: '5,6' },
    });
    fireEvent.click(within(form).getByRole('radio', { name: 'Fasting' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await closed();
    expect(await db.vitals.toArray()).toMatchObject([
      { kind: 'blood_glucose', unit: 'mmol/L', value: 5.6, fasting: true },
    ]);
    // Shown in the person's unit, rounded as it is read, and as it was entered.
    const item = within(await readingsList()).getByRole('listitem');
    expect(within(item).getByTestId('reading-value').textContent).toBe('101 mg/dL, fasting');
    expect(item.textContent).toContain('Entered as 5.6 mmol/L, fasting');
  });
});

describe('the readings', () => {
  it('lists them newest first, each with its unit, who entered it and its note; the latest of each kind', async () => {
    await db.careApproved.put({
      request_id: 'request-1',
      permission_id: 'link-1',
      patient_id: PATIENT,
      caregiver_id: CAREGIVER,
      name: 'Alex Carer',
      email: 'alex@example.com',
      is_family: true,
      relationship: 'Son',
      permissions: ['ReadVitals', 'AddVitals'],
      phone_number: null,
      status: 'approved',
      approved_at: '2026-11-01T00:00:00.000Z',
    });
    await db.vitals.bulkPut([
      stored({ kind: 'weight', unit: 'kg', value: 75 }, 30),
      stored({ kind: 'pulse', unit: 'bpm', value: 110, caregiver_id: CAREGIVER, note: 'After stairs' }, 2),
      stored({ kind: 'pulse', unit: 'bpm', value: 58 }, 5),
      stored({ kind: 'temperature', unit: '°C', value: 37.2 }, 50),
    ]);
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const items = within(await readingsList()).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByTestId('reading-value').textContent)).toEqual([
      '110 bpm',
      '58 bpm',
      '165.3 lb',
      '99 °F',
    ]);
    expect(items[0]?.textContent).toContain('Entered by Alex Carer');
    expect(items[0]?.textContent).toContain('After stairs');
    expect(within(items[0] as HTMLElement).getByText('High')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('Low')).toBeTruthy();
    // 37.2 °C is the target's upper end: shown as 99 °F against a target shown ending at 99 °F, in range.
    expect(within(items[3] as HTMLElement).queryByText('High')).toBeNull();
    expect(items[2]?.textContent).toContain('Entered as 75 kg');

    const latest = await screen.findByTestId('vital-latest');
    const tile = (kind: string) => latest.querySelector(`[data-kind="${kind}"]`) as HTMLElement;
    expect(within(tile('pulse')).getByTestId('reading-value').textContent).toBe('110 bpm');
    expect(within(tile('blood_pressure')).getByText('No reading yet.')).toBeTruthy();
  });

  it('says "you" to the caregiver who entered a reading', async () => {
    await db.vitals.put(stored({ kind: 'pulse', unit: 'bpm', value: 70, caregiver_id: CAREGIVER }));
    render(<VitalsPage patientId={PATIENT} caregiverId={CAREGIVER} can={ALL} />);
    expect((await screen.findByTestId('entered-by')).textContent).toBe('Entered by you');
  });

  it('edits only what changed and deletes after asking', async () => {
    const reading = stored({ kind: 'pulse', unit: 'bpm', value: 70, note: 'Resting' });
    await db.vitals.put(reading);
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Edit pulse reading of / }));
    const form = await screen.findByRole('form', { name: 'Edit pulse reading' });
    const value = within(form).getByRole('textbox', { name: 'Pulse' }) as HTMLInputElement;
    expect(value.value).toBe('70');
    fireEvent.change(value, { target: { value: '72' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await closed();
    const [edit] = await db.outbox.toArray();
    expect(edit).toMatchObject({ op: 'update', payload: { value: 72 } });
    expect(Object.keys(edit?.payload ?? {}).sort()).toEqual(['updated_at', 'value']);
    expect((await db.vitals.get(reading.id))?.measured_at).toBe(reading.measured_at);

    fireEvent.click(screen.getByRole('button', { name: /^Delete pulse reading of / }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete reading' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await closed();
    expect(await screen.findByText(/^No readings yet\./)).toBeTruthy();
    expect(toasts.success).toHaveBeenCalledWith(VITAL_MESSAGES.deleted);
  });

  it('gives a caregiver without Add, Edit or Delete no such buttons', async () => {
    await db.vitals.put(stored({ kind: 'pulse', unit: 'bpm', value: 70 }));
    render(
      <VitalsPage
        patientId={PATIENT}
        caregiverId={CAREGIVER}
        can={{ add: false, edit: false, delete: false }}
      />,
    );
    await readingsList();
    expect(screen.queryByRole('group', { name: 'Add a reading' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });

  it('asks for a patient when none is selected', async () => {
    render(<VitalsPage patientId={null} caregiverId={CAREGIVER} can={ALL} />);
    expect(await screen.findByText('Please select patient.')).toBeTruthy();
  });
});

describe('charts, units and targets', () => {
  const rowsOf = (figure: HTMLElement) =>
    within(figure)
      .getAllByRole('row', { hidden: true })
      .slice(1)
      .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

  it('draws a day’s average in the person’s unit with the target behind it and round ticks', async () => {
    // Two readings early today (their average is the day's point) and one three days ago.
    const today = DateTime.now().startOf('day');
    const at = (time: DateTime) => time.toISO() ?? '';
    await db.vitals.bulkPut([
      stored({ kind: 'pulse', unit: 'bpm', value: 120, measured_at: at(today.plus({ seconds: 2 })) }),
      stored({ kind: 'pulse', unit: 'bpm', value: 110, measured_at: at(today.plus({ seconds: 1 })) }),
      stored({
        kind: 'pulse',
        unit: 'bpm',
        value: 50,
        measured_at: at(today.minus({ days: 3 }).plus({ hours: 12 })),
      }),
    ]);
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const pulse = await findChart('Pulse');
    expect(pulse.querySelector('figcaption')?.textContent).toContain('Target: 60 to 100 bpm');
    const rows = rowsOf(pulse);
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)).toEqual([expect.any(String), '115', 'High']);
    expect(rows.at(-4)).toEqual([expect.any(String), '50', 'Low']);
    expect(rows.at(-2)).toEqual([expect.any(String), 'No value', '']);
    expect(
      within(pulse)
        .getAllByTestId('chart-tick')
        .map((tick) => tick.textContent),
    ).toEqual(['50', '75', '100', '125']);
    expect(pulse.querySelectorAll('circle[data-flag]')).toHaveLength(2);
    expect(within(pulse).getByRole('img').getAttribute('aria-label')).toContain(
      'Target 60 to 100 bpm: 1 day above it, 1 day below it.',
    );
    fireEvent.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() => expect(rowsOf(pulse)).toHaveLength(7));
    fireEvent.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(async () => expect(rowsOf(await findChart('Pulse'))).toHaveLength(90));
  });

  it('charts blood pressure’s two numbers apart, each with its own target', async () => {
    const earlyToday = DateTime.now().startOf('day').plus({ seconds: 1 }).toISO() ?? '';
    await db.vitals.put(
      stored({ kind: 'blood_pressure', unit: 'mmHg', systolic: 135, diastolic: 85, measured_at: earlyToday }),
    );
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const top = await findChart('Blood pressure, top number (systolic)');
    const bottom = await findChart('Blood pressure, bottom number (diastolic)');
    expect(top.querySelector('figcaption')?.textContent).toContain('Target: 90 to 120 mmHg');
    expect(bottom.querySelector('figcaption')?.textContent).toContain('Target: 60 to 80 mmHg');
    expect(rowsOf(top).at(-1)?.slice(1)).toEqual(['135', 'High']);
  });

  it('changes units and targets on this device: readings and charts follow', async () => {
    await db.vitals.put(stored({ kind: 'weight', unit: 'lb', value: 176 }));
    render(<VitalsPage patientId={PATIENT} caregiverId={null} can={ALL} />);
    const settings = await screen.findByTestId('vital-settings');
    expect(settings.textContent).toContain('Weight in lb');
    expect(settings.textContent).toContain('Weight targetNo target set');
    fireEvent.click(within(settings).getByRole('button', { name: 'Change units and targets' }));
    const form = await screen.findByRole('form', { name: 'Units and targets' });
    fireEvent.click(within(form).getByRole('radio', { name: 'kg' }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'Weight target From' }), {
      target: { value: '70' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Weight target To' }), {
      target: { value: '60' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save units and targets' }));
    expect(
      await within(form).findByText('The lower end of the weight target must be below the upper end.'),
    ).toBeTruthy();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Weight target To' }), {
      target: { value: '78' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save units and targets' }));
    await closed();
    const item = within(await readingsList()).getByRole('listitem');
    expect(within(item).getByTestId('reading-value').textContent).toBe('79.8 kg');
    expect(item.textContent).toContain('Entered as 176 lb');
    expect(within(item).getByText('High')).toBeTruthy();
    expect((await findChart('Weight')).querySelector('figcaption')?.textContent).toContain(
      'Target: 70 to 78 kg',
    );
  });
});
