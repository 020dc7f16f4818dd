import { useMemo, useState } from 'react';
import type { ApprovedRequest } from '../../../domain/caregivers';
import { Button } from '../../ui/button';
import { DialogFrame } from '../../ui/confirm-dialog';
import { FormSheet } from '../../ui/form-sheet';
import { SelectField, TextField, CheckboxField } from '../../ui/fields';
import { LabelPhotoBox } from './prescription-form-parts';
import { timeZoneOptions } from '../../ui/time-zones';
import { doctorOptions, pharmacyOptions } from './prescription-form-options';
import { FORM_OPTIONS, STATUS_OPTIONS } from './prescription-format';
import { DirectionsAndTimes, MissedDoseAlerts } from './prescription-schedule-fields';
import { usePrescriptionForm, type PrescriptionFormContext } from './use-prescription-form';

// Add or edit a prescription, in a sheet: what the medicine is, its label photo, when to take it
// (prescription-schedule-fields.tsx), where it comes from and how much, and its reminders. The state and
// the save are use-prescription-form.ts. A form filled from a label photo holds what the person has not
// typed and may not have checked yet: closing it asks first, so a stray tap does not throw the reading away.

type Props = PrescriptionFormContext & {
  /** The patient themself: only they choose which caregivers a missed dose alerts. */
  isPatient: boolean;
  caregivers: readonly ApprovedRequest[];
  onCancel: () => void;
};

export function PrescriptionFormSheet({ isPatient, caregivers, onCancel, ...context }: Props) {
  const state = usePrescriptionForm(context);
  const { form, photo, submission } = state;
  const { editing, doctors, pharmacies } = context;
  const { values, field } = form;
  const zones = useMemo(() => timeZoneOptions(values.time_zone), [values.time_zone]);
  const [askingToDiscard, setAskingToDiscard] = useState(false);
  const cancel = () => (photo.filledForm ? setAskingToDiscard(true) : onCancel());
  return (
    <FormSheet
      title={editing ? 'Edit prescription' : 'New prescription'}
      data-testid="prescription-sheet"
      onClose={cancel}
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      columns={2}
      submitLabel={editing ? 'Save changes' : 'Add prescription'}
      busy={submission.busy}
      submitDisabled={photo.reading.state === 'reading'}
      onCancel={cancel}
    >
      <div className="sm:col-span-2">
        <TextField label="Medicine name" required placeholder="e.g. Metformin" {...field('medicine_name')} />
      </div>
      <TextField label="Strength" placeholder="e.g. 500 mg" {...field('strength')} />
      <SelectField label="Form" options={FORM_OPTIONS} {...field('form')} />

      <LabelPhotoBox photo={photo} replacing={Boolean(editing?.attachment_key)} />
      <DirectionsAndTimes state={state} />

      <TextField label="Start date" type="date" required {...field('start_date')} />
      <TextField label="End date" type="date" hint="Leave empty if ongoing." {...field('end_date')} />
      <SelectField label="Status" options={STATUS_OPTIONS} {...field('status')} />
      <SelectField
        label="Prescribing doctor"
        placeholder={doctors.length === 0 ? 'No doctors added yet' : '--- Select Doctor ---'}
        options={doctorOptions(doctors, values.doctor_id)}
        {...field('doctor_id')}
      />
      <SelectField
        label="Pharmacy"
        placeholder={pharmacies.length === 0 ? 'No pharmacies added yet' : '--- Select Pharmacy ---'}
        options={pharmacyOptions(pharmacies, values.pharmacy_id)}
        {...field('pharmacy_id')}
      />
      <TextField label="Quantity" inputMode="numeric" placeholder="e.g. 60" {...field('quantity')} />
      <TextField label="Refills" inputMode="numeric" placeholder="e.g. 2" {...field('refills')} />
      <SelectField
        label="Time zone"
        hint="Dose times are in this zone."
        options={zones}
        {...field('time_zone')}
      />
      <div className="sm:col-span-2">
        <TextField label="Notes" placeholder="e.g. Take with food" {...field('notes')} />
      </div>

      <div className="sm:col-span-2">
        <CheckboxField checked={values.reminders} onChange={(checked) => form.set('reminders', checked)}>
          Reminders at each dose time
        </CheckboxField>
      </div>

      {isPatient ? <MissedDoseAlerts state={state} caregivers={caregivers} /> : null}

      <DialogFrame
        open={askingToDiscard}
        title={editing ? 'Discard your changes?' : 'Discard this prescription?'}
        message="The details read from the label photo are not saved yet. If you close the form now, they are lost."
        onClose={() => setAskingToDiscard(false)}
        actions={
          <>
            {/* Focus starts on the choice that loses nothing. */}
            <Button variant="secondary" onClick={() => setAskingToDiscard(false)} autoFocus>
              Keep editing
            </Button>
            <Button variant="danger" onClick={onCancel}>
              Discard
            </Button>
          </>
        }
      />
    </FormSheet>
  );
}
