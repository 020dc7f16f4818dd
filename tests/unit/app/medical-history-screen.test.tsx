// The medical history screen on the device's table (the table holds each entry as a
// field of its own, read through the domain's assembler): honest empty states, adding,
// editing and removing entries through the form in a sheet (checked with the domain's messages, saved
// through the outbox), the lifestyle, and a caregiver's read-only view.

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { assembledHistory, entryPatch, medicalHistoryId } from '../../../src/domain/medical-history';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import { setSpeechEnabled } from '../../../src/local/speech';
import { fakeRecognition, fakeSynthesis, lastRecognizer } from '../local/speech-fakes';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('react-hot-toast', () => ({ default: toasts }));
const { MedicalHistoryPage } = await import('../../../src/app/features/medical-history/medical-history-page');

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000002';
let db: KincareDb;
beforeAll(async () => {
  db = await openUserDb('medical-history-screen');
});
beforeEach(async () => {
  await Promise.all([db.medical_history.clear(), db.outbox.clear(), db.serverRows.clear()]);
  toasts.success.mockClear();
});
afterEach(cleanup);

const section = (name: string) => screen.getByRole('group', { name });
/** The sheet has closed (while it is open the rest of the page is hidden from assistive technology). */
const closed = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

describe('the patient', () => {
  it('sees every section empty, adds a condition after the form names what is missing', async () => {
    render(<MedicalHistoryPage patientId={PATIENT} editable />);
    expect(await screen.findByText('No conditions recorded.')).toBeTruthy();
    for (const empty of [
      'No allergies recorded.',
      'No surgeries recorded.',
      'No family history recorded.',
      'No immunizations recorded.',
    ])
      expect(screen.getByText(empty)).toBeTruthy();
    expect(within(section('Lifestyle')).getByText('Smoking').nextSibling?.textContent).toBe('Not recorded');

    fireEvent.click(within(section('Conditions')).getByRole('button', { name: 'Add condition' }));
    const form = await screen.findByRole('form', { name: 'Add condition' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Condition' })),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Add condition' }));
    expect(await within(form).findByText('Condition name is required.')).toBeTruthy();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Condition' }), {
      target: { value: 'Asthma' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Onset' }), { target: { value: '2010-13' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add condition' }));
    expect(await within(form).findByText('Enter a date as YYYY-MM-DD, YYYY-MM or YYYY.')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);
    // A month as a person writes it is taken, and kept as 2010-03.
    fireEvent.change(within(form).getByRole('textbox', { name: 'Onset' }), {
      target: { value: 'March 2010' },
    });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Status' }), {
      target: { value: 'managed' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add condition' }));
    await closed();
    expect(await within(section('Conditions')).findByRole('heading', { name: 'Asthma' })).toBeTruthy();
    expect(within(section('Conditions')).getByText('Managed · Since 2010-03')).toBeTruthy();
    expect(toasts.success).toHaveBeenCalledWith('Condition added.');
    const row = await db.medical_history.get(await medicalHistoryId(PATIENT));
    // The table holds the entry as a field of its own; the screen reads it through the assembler.
    expect(Object.keys(row ?? {}).filter((field) => field.startsWith('conditions:'))).toHaveLength(1);
    expect(row && assembledHistory(row).conditions).toMatchObject([
      { name: 'Asthma', onset: '2010-03', status: 'managed', notes: '', added_at: expect.any(String) },
    ]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('edits and removes an allergy, and changes the lifestyle', async () => {
    const id = await medicalHistoryId(PATIENT);
    const peanuts = {
      id: crypto.randomUUID(),
      substance: 'Peanuts',
      reaction: 'Swelling',
      severity: 'severe',
    } as const;
    await db.medical_history.put({
      id,
      patient_id: PATIENT,
      version: 3,
      ...entryPatch('allergies', peanuts),
    });
    render(<MedicalHistoryPage patientId={PATIENT} editable />);
    const allergies = await screen.findByRole('group', { name: 'Allergies' });
    expect(await within(allergies).findByText('Severe · Reaction: Swelling')).toBeTruthy();

    fireEvent.click(within(allergies).getByRole('button', { name: 'Edit Peanuts' }));
    const form = await screen.findByRole('form', { name: 'Edit allergy' });
    expect(
      (within(form).getByRole('textbox', { name: 'Allergy (substance)' }) as HTMLInputElement).value,
    ).toBe('Peanuts');
    fireEvent.change(within(form).getByRole('combobox', { name: 'Severity' }), {
      target: { value: 'life_threatening' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await closed();
    expect(await within(allergies).findByText('Life-threatening · Reaction: Swelling')).toBeTruthy();
    expect(toasts.success).toHaveBeenCalledWith('Allergy updated.');
    const [update] = await db.outbox.toArray();
    expect(update).toMatchObject({ op: 'update', baseVersion: 3 });
    // Only the edited entry's field is sent.
    expect(Object.keys(update?.payload ?? {}).filter((field) => field.includes(':'))).toEqual([
      `allergies:${peanuts.id}`,
    ]);

    fireEvent.click(within(allergies).getByRole('button', { name: 'Remove Peanuts' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove allergy?' });
    expect(confirm.textContent).toContain('This removes Peanuts from the allergies.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await closed();
    expect(await within(allergies).findByText('No allergies recorded.')).toBeTruthy();
    expect(toasts.success).toHaveBeenCalledWith('Allergy removed.');

    fireEvent.click(within(section('Lifestyle')).getByRole('button', { name: 'Edit lifestyle' }));
    const lifestyle = await screen.findByRole('form', { name: 'Edit lifestyle' });
    fireEvent.change(within(lifestyle).getByRole('combobox', { name: 'Smoking' }), {
      target: { value: 'former' },
    });
    fireEvent.change(within(lifestyle).getByRole('textbox', { name: 'Notes' }), {
      target: { value: 'Quit in 2015' },
    });
    fireEvent.click(within(lifestyle).getByRole('button', { name: 'Save lifestyle' }));
    await closed();
    await waitFor(() => expect(within(section('Lifestyle')).getByText('Former smoker')).toBeTruthy());
    expect(within(section('Lifestyle')).getByText('Quit in 2015')).toBeTruthy();
    expect((await db.medical_history.get(id))?.lifestyle).toEqual({
      smoking: 'former',
      alcohol: 'unknown',
      exercise: 'unknown',
      notes: 'Quit in 2015',
    });
  });
});

describe('voice input', () => {
  it('fills a text field and a spoken date when speech is on', async () => {
    localStorage.clear();
    fakeSynthesis();
    fakeRecognition();
    act(() => setSpeechEnabled(true));
    render(<MedicalHistoryPage patientId={PATIENT} editable />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add surgery' }));
    const form = await screen.findByRole('form', { name: 'Add surgery' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Speak the Procedure' }));
    await act(async () => lastRecognizer().hear('Knee replacement'));
    expect((within(form).getByRole('textbox', { name: 'Procedure' }) as HTMLInputElement).value).toBe(
      'Knee replacement',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Speak the Date' }));
    await act(async () => lastRecognizer().hear('March third twenty twenty'));
    expect((within(form).getByRole('textbox', { name: 'Date' }) as HTMLInputElement).value).toBe(
      '2020-03-03',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Speak the Date' }));
    await act(async () => lastRecognizer().hear('the blue one'));
    expect(await within(form).findByText("Couldn't understand the date. Please try again.")).toBeTruthy();
    act(() => setSpeechEnabled(false));
    vi.unstubAllGlobals();
  });
});

describe('a caregiver', () => {
  it('reads the history without a way to change it', async () => {
    await db.medical_history.put({
      id: await medicalHistoryId(PATIENT),
      patient_id: PATIENT,
      version: 2,
      ...entryPatch('conditions', {
        id: crypto.randomUUID(),
        name: 'Hypertension',
        onset: null,
        status: 'active',
        notes: '',
      }),
    });
    render(<MedicalHistoryPage patientId={PATIENT} editable={false} after={<p>Check-ins here</p>} />);
    expect(await screen.findByRole('heading', { name: 'Hypertension' })).toBeTruthy();
    expect(screen.getByText('No allergies recorded.')).toBeTruthy();
    expect(screen.getByText('Check-ins here')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    // Its keyboard reaches each section through the section links.
    Element.prototype.scrollIntoView = vi.fn();
    fireEvent.click(screen.getByRole('link', { name: 'Allergies' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Allergies' }));
  });

  it('asks for a patient when none is selected', async () => {
    render(<MedicalHistoryPage patientId={null} editable={false} />);
    expect(await screen.findByText('Please select patient.')).toBeTruthy();
  });
});
