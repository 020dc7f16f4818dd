// The prescriptions screen on the device's tables: directions suggest the dose times until the
// person chooses them, saving goes through the outbox, the list shows current ones or what the filters keep, status
// changes and delete, a caregiver who may only read, and reading a label photo (online only).

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Prescription } from '../../../src/domain/prescriptions';
import { openUserDb, type KincareDb } from '../../../src/local/db';
import {
  checkFormValues,
  initialFormValues,
  withExtraction,
} from '../../../src/app/features/prescriptions/prescription-form-values';
import { selectPrescriptions } from '../../../src/app/features/prescriptions/use-prescriptions';

vi.mock('react-hot-toast', () => ({
  default: { success: vi.fn(), error: vi.fn() },
}));
const ocr = vi.hoisted(() => ({ read: vi.fn() }));
vi.mock('../../../src/local/prescription-ocr', () => ({
  readLabelPhoto: ocr.read,
}));
const { PrescriptionsPage } = await import('../../../src/app/features/prescriptions/prescriptions-page');

const PATIENT = 'patient-1';
function prescription(
  id: string,
  name: string,
  status: Prescription['status'],
  end: string | null = null,
): Prescription {
  return {
    id,
    prescription_id: id,
    patient_id: PATIENT,
    caregiver_id: null,
    medicine_name: name,
    strength: '5 mg',
    form: 'tablet',
    directions: 'Take 1 tablet daily',
    doctor_id: null,
    pharmacy_id: null,
    quantity: 30,
    refills: 1,
    start_date: '2026-01-01',
    end_date: end,
    times: ['08:00'],
    as_needed: false,
    status,
    notes: '',
    attachment_key: null,
    time_zone: 'UTC',
    reminders: true,
    alert_after_minutes: 60,
    alert_caregivers: [],
    version: 1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

let db: KincareDb;
beforeAll(async () => {
  db = await openUserDb('prescriptions-screen');
});
beforeEach(async () => {
  await Promise.all([db.prescriptions.clear(), db.outbox.clear(), db.doctors.clear()]);
});
afterEach(cleanup);

describe('form values', () => {
  it('names problems in the domain words and accepts a full form', () => {
    const empty = initialFormValues(null, '2026-05-01', 'UTC');
    const checked = checkFormValues(empty);
    expect(checked.fields).toBeNull();
    expect(checked.errors.medicine_name).toBe('Medicine name is required.');
    const ok = checkFormValues({
      ...empty,
      medicine_name: 'X',
      times: ['08:00'],
    });
    expect(ok.errors).toEqual({});
    expect(ok.fields?.times).toEqual(['08:00']);
    expect(
      checkFormValues({
        ...empty,
        medicine_name: 'X',
        times: ['08:00'],
        quantity: '1.5',
      }).errors.quantity,
    ).toBe('Quantity must be a whole number from 0 to 10000.');
    expect(checkFormValues({ ...empty, medicine_name: 'X', as_needed: true }).errors).toEqual({});
    expect(
      checkFormValues({
        ...empty,
        medicine_name: 'X',
        times: ['08:00'],
        end_date: '2026-04-01',
      }).errors.end_date,
    ).toBe('End date cannot be before the start date.');
  });
  it('prefills from a reading', () => {
    const start = initialFormValues(null, '2026-05-01', 'UTC');
    const next = withExtraction(
      { ...start, notes: 'kept' },
      {
        medicine_name: 'Metformin',
        strength: '500 mg',
        form: 'tablet',
        directions: 'Take 1 tablet twice daily',
        quantity: 60,
        refills: 2,
        prescriber: 'Dr A',
        pharmacy: 'City',
        rx_number: '1',
        times: [],
        as_needed: false,
        directions_understood: false,
        doctor_id: 'd1',
        pharmacy_id: 'unknown',
        text: '',
        confidence: 90,
      },
      { doctorIds: new Set(['d1']), pharmacyIds: new Set() },
    );
    expect(next).toMatchObject({
      medicine_name: 'Metformin',
      quantity: '60',
      refills: '2',
      doctor_id: 'd1',
      pharmacy_id: '',
      notes: 'kept',
      times: ['08:00', '20:00'],
    });
  });
  it('selects the future list or the filtered one', () => {
    const rows = [
      prescription('a', 'A', 'active'),
      prescription('b', 'B', 'completed'),
      prescription('c', 'C', 'active', '2026-02-01'),
    ];
    expect(selectPrescriptions(rows, {}, '2026-05-01').map((row) => row.id)).toEqual(['a']);
    expect(selectPrescriptions(rows, { status: 'completed' }, '2026-05-01').map((row) => row.id)).toEqual([
      'b',
    ]);
  });
});

describe('screen', () => {
  it('adds by typing: directions suggest the times; saved through the outbox', async () => {
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId={null}
        isPatient
        can={{ add: true, edit: true, delete: true }}
        schedule={null}
      />,
    );
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Add your first prescription',
      }),
    );
    const form = await screen.findByRole('form', { name: 'New prescription' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Medicine name' })),
    );
    fireEvent.change(within(form).getByRole('textbox', { name: 'Medicine name' }), {
      target: { value: 'Metformin' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Directions' }), {
      target: { value: 'Take 1 tablet by mouth twice daily' },
    });
    expect((within(form).getByLabelText('Dose time 1') as HTMLInputElement).value).toBe('08:00');
    expect((within(form).getByLabelText('Dose time 2') as HTMLInputElement).value).toBe('20:00');
    expect(within(form).getByTestId('directions-summary').textContent).toContain('Twice a day');
    // Times edited by hand stay when the directions change.
    fireEvent.change(within(form).getByLabelText('Dose time 1'), {
      target: { value: '09:00' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Directions' }), {
      target: { value: 'Take 1 tablet three times daily' },
    });
    expect(within(form).getAllByLabelText(/^Dose time \d$/)).toHaveLength(2);
    fireEvent.click(within(form).getByRole('button', { name: 'Add prescription' }));
    await waitFor(async () => expect(await db.prescriptions.count()).toBe(1));
    const [saved] = await db.prescriptions.toArray();
    expect(saved?.times).toEqual(['09:00', '20:00']);
    expect(saved?.reminders).toBe(true);
    expect(await db.outbox.count()).toBe(1);
    expect(await screen.findByRole('heading', { name: 'Metformin' })).toBeTruthy();
  });

  it('lists current ones, filters by status, and offers status actions and delete', async () => {
    await db.prescriptions.bulkAdd([
      prescription('a', 'Alpha', 'active'),
      prescription('b', 'Beta', 'completed'),
    ]);
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId={null}
        isPatient
        can={{ add: true, edit: true, delete: true }}
        schedule={null}
      />,
    );
    await screen.findByRole('heading', { name: 'Alpha 5 mg' });
    expect(screen.queryByRole('heading', { name: 'Beta 5 mg' })).toBeNull();
    const filters = screen.getByRole('form', { name: 'Filter prescriptions' });
    fireEvent.change(within(filters).getByLabelText('Status'), {
      target: { value: 'completed' },
    });
    await screen.findByRole('heading', { name: 'Beta 5 mg' });
    expect(screen.queryByRole('heading', { name: 'Alpha 5 mg' })).toBeNull();
    fireEvent.click(within(filters).getByRole('button', { name: 'Clear Filters' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Put on hold: Alpha 5 mg' }));
    await waitFor(async () => expect((await db.prescriptions.get('a'))?.status).toBe('on_hold'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Alpha 5 mg' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete prescription?',
    });
    expect(dialog.textContent).toContain(
      'This removes Alpha 5 mg and its schedule. Marked doses stay in the history.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await db.prescriptions.get('a')).toBeUndefined());
  });

  it('read only: no add, edit, status or delete', async () => {
    await db.prescriptions.bulkAdd([prescription('a', 'Alpha', 'active')]);
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId="cg"
        isPatient={false}
        can={{ add: false, edit: false, delete: false }}
        schedule={null}
      />,
    );
    const heading = await screen.findByRole('heading', { name: 'Alpha 5 mg' });
    const card = heading.closest('li') as HTMLElement;
    // The strength is in the heading, and said once on the card.
    expect(card.textContent?.match(/5 mg/g)?.length).toBe(1);
    expect(within(card).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });

  it('names a pharmacy and a doctor it cannot show as not shared with a caregiver, or as removed for the patient', async () => {
    await db.prescriptions.bulkAdd([
      { ...prescription('a', 'Alpha', 'active'), pharmacy_id: 'ph-1', doctor_id: 'dr-1' },
    ]);
    const view = render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId="cg"
        isPatient={false}
        can={{ add: false, edit: false, delete: false, readDoctors: false, readPharmacies: false }}
        schedule={null}
      />,
    );
    const card = (await screen.findByRole('heading', { name: 'Alpha 5 mg' })).closest('li') as HTMLElement;
    expect(card.textContent).toContain('A pharmacy (the patient’s pharmacies are not shared with you)');
    expect(card.textContent).toContain('A doctor (the patient’s doctors are not shared with you)');
    expect(card.textContent).not.toContain('no longer in the list');
    view.unmount();
    // The patient holds both lists: a name that is missing there was removed.
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId={null}
        isPatient
        can={{ add: true, edit: true, delete: true }}
        schedule={null}
      />,
    );
    const own = (await screen.findByRole('heading', { name: 'Alpha 5 mg' })).closest('li') as HTMLElement;
    expect(own.textContent).toContain('A pharmacy no longer in the list');
  });

  it('reads a label photo online: prefills for review and keeps the uploaded key; offline says so', async () => {
    globalThis.URL.createObjectURL = () => 'blob:preview';
    globalThis.URL.revokeObjectURL = () => undefined;
    ocr.read.mockResolvedValue({
      key: 'prescriptions/abc.png',
      message: 'ok',
      extraction: {
        medicine_name: 'Metformin',
        strength: '500 mg',
        form: 'tablet',
        directions: 'Take 1 tablet by mouth twice daily',
        quantity: 60,
        refills: 2,
        prescriber: null,
        pharmacy: null,
        rx_number: null,
        times: ['08:00', '20:00'],
        as_needed: false,
        directions_understood: true,
        doctor_id: null,
        pharmacy_id: null,
        text: '',
        confidence: 80,
      },
    });
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId={null}
        isPatient
        can={{ add: true, edit: true, delete: true }}
        schedule={null}
      />,
    );
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Add your first prescription',
      }),
    );
    const form = await screen.findByRole('form', { name: 'New prescription' });
    const file = new File([new Uint8Array([1, 2, 3])], 'label.png', {
      type: 'image/png',
    });
    // Offline, choosing the photo tries to read it at once (no second tap) and says why it cannot.
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fireEvent.change(within(form).getByLabelText('Label photo'), {
      target: { files: [file] },
    });
    expect(
      await within(form).findByText(
        'Reading a label photo needs a connection. You can type the details and attach the photo now.',
        { selector: '[role="alert"]' },
      ),
    ).toBeTruthy();
    expect(ocr.read).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    fireEvent.click(within(form).getByRole('button', { name: 'Read again' }));
    expect(
      await within(form).findByText('Please review the details read from the photo before saving.'),
    ).toBeTruthy();
    expect(
      (
        within(form).getByRole('textbox', {
          name: 'Medicine name',
        }) as HTMLInputElement
      ).value,
    ).toBe('Metformin');
    expect(
      (
        within(form).getByRole('textbox', {
          name: 'Quantity',
        }) as HTMLInputElement
      ).value,
    ).toBe('60');
    expect((within(form).getByLabelText('Dose time 2') as HTMLInputElement).value).toBe('20:00');
    fireEvent.click(within(form).getByRole('button', { name: 'Add prescription' }));
    await waitFor(async () => expect(await db.prescriptions.count()).toBe(1));
    const [saved] = await db.prescriptions.toArray();
    expect(saved?.attachment_key).toBe('prescriptions/abc.png');
    online.mockRestore();
  });

  it('reads a label photo as soon as it is chosen, and asks before Cancel throws the reading away', async () => {
    globalThis.URL.createObjectURL = () => 'blob:preview';
    globalThis.URL.revokeObjectURL = () => undefined;
    ocr.read.mockReset();
    ocr.read.mockResolvedValue({
      key: 'prescriptions/read.png',
      message: 'ok',
      extraction: {
        medicine_name: 'Lisinopril',
        strength: '10 mg',
        form: 'tablet',
        directions: 'Take 1 tablet by mouth once daily',
        quantity: 30,
        refills: 1,
        prescriber: null,
        pharmacy: null,
        rx_number: null,
        times: ['08:00'],
        as_needed: false,
        directions_understood: true,
        doctor_id: null,
        pharmacy_id: null,
        text: '',
        confidence: 80,
      },
    });
    render(
      <PrescriptionsPage
        patientId={PATIENT}
        caregiverId={null}
        isPatient
        can={{ add: true, edit: true, delete: true }}
        schedule={null}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add your first prescription' }));
    const form = await screen.findByRole('form', { name: 'New prescription' });
    const photoField = within(form).getByLabelText('Label photo');
    // On a phone the field opens the camera at once.
    expect(photoField.getAttribute('capture')).toBe('environment');
    fireEvent.change(photoField, {
      target: { files: [new File([new Uint8Array([1, 2, 3])], 'label.png', { type: 'image/png' })] },
    });
    await waitFor(() =>
      expect((within(form).getByRole('textbox', { name: 'Medicine name' }) as HTMLInputElement).value).toBe(
        'Lisinopril',
      ),
    );
    expect(ocr.read).toHaveBeenCalledTimes(1);

    // Cancel asks first; "Keep editing" keeps every field as it was read.
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard this prescription?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Discard this prescription?' })).toBeNull(),
    );
    expect((within(form).getByRole('textbox', { name: 'Medicine name' }) as HTMLInputElement).value).toBe(
      'Lisinopril',
    );

    // Asked again, Discard closes the form with nothing saved.
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Discard this prescription?' })).getByRole('button', {
        name: 'Discard',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New prescription' })).toBeNull());
    expect(await db.prescriptions.count()).toBe(0);
  });
});
