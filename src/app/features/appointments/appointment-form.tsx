import { useState, type FormEvent } from 'react';
import {
  APPOINTMENT_STATUSES,
  appointmentFormSchema,
  isoToLocalInput,
  localInputToIso,
  type Appointment,
  type AppointmentForm,
} from '../../../domain/appointments';
import { addAppointment, editAppointment, type Attachment } from '../../../local/appointments';
import { uploadProblem } from '../../../domain/uploads';
import { userDb } from '../../../local/db';
import { SelectField, TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
import { useZodForm } from '../../ui/use-zod-form';
import { useDoctors } from './use-appointments';

// Create or edit an appointment. Saving writes to this device at once (online or not); the sync engine
// sends it when it can, so the form never waits on the network.

type Props = {
  patientId: string;
  caregiverId: string | null;
  editing: Appointment | null;
  onDone: (message: string) => void;
  onCancel: () => void;
};

function initialValues(editing: Appointment | null) {
  return {
    appointment_title: editing?.appointment_title ?? '',
    appointment_date: editing ? isoToLocalInput(editing.appointment_date) : '',
    doctor_id: editing?.doctor_id ?? '',
    location: editing?.location ?? '',
    notes: editing?.notes ?? '',
    status: editing?.status ?? 'scheduled',
  };
}

export function AppointmentFormPanel({ patientId, caregiverId, editing, onDone, onCancel }: Props) {
  const [initial] = useState(() => initialValues(editing));
  const form = useZodForm(appointmentFormSchema, initial);
  const doctors = useDoctors(patientId);
  const [busy, setBusy] = useState(false);
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [attachmentError, setAttachmentError] = useState<string | null>(null);

  const chooseFile = (file: File | undefined) => {
    const problem = file ? uploadProblem('appointment', file) : null;
    setAttachmentError(problem);
    setAttachment(file && !problem ? { blob: file, name: file.name } : null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate<AppointmentForm>();
    if (!values || attachmentError) return;
    const fields = {
      ...values,
      appointment_date: localInputToIso(values.appointment_date) ?? '',
      doctor_id: values.doctor_id || null,
    };
    setBusy(true);
    try {
      // Only what the person changed in this form: another tab or device may have changed the rest.
      if (editing) {
        const changes = changedFields(fields, {
          ...initial,
          appointment_date: editing.appointment_date,
          doctor_id: editing.doctor_id,
        });
        await editAppointment(userDb(), editing.id, changes, new Date(), attachment ?? undefined);
      } else
        await addAppointment(userDb(), {
          ...fields,
          patient_id: patientId,
          caregiver_id: caregiverId,
          attachment,
        });
      onDone(editing ? 'Appointment updated' : 'Appointment added');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={editing ? 'Edit appointment' : 'New appointment'}
      className="grid gap-x-4 sm:grid-cols-2"
    >
      <TextField
        label="Title"
        required
        placeholder="e.g. Cardiology check-up"
        {...form.field('appointment_title')}
      />
      <DateTimeField {...form.field('appointment_date')} />
      <SelectField
        label="Doctor"
        placeholder={doctors.length === 0 ? 'No doctors added yet' : '--- Select Doctor ---'}
        options={doctors.map((doctor) => ({ value: doctor.id, label: doctor.name }))}
        {...form.field('doctor_id')}
      />
      <SelectField
        label="Status"
        options={APPOINTMENT_STATUSES.map((status) => ({
          value: status,
          label: status[0]?.toUpperCase() + status.slice(1),
        }))}
        {...form.field('status')}
      />
      <TextField label="Location" placeholder="Clinic, address or video link" {...form.field('location')} />
      <TextField label="Notes" placeholder="What to bring, questions to ask" {...form.field('notes')} />
      <div className="mb-4 sm:col-span-2">
        <label htmlFor="appointment-attachment" className="block text-sm font-medium text-slate-800">
          {editing?.attachment_key ? 'Replace the attachment' : 'Attachment'} (a photo or PDF of a referral
          letter or appointment card)
        </label>
        <input
          id="appointment-attachment"
          type="file"
          accept="image/png,image/jpeg,image/webp,application/pdf"
          aria-invalid={attachmentError ? true : undefined}
          aria-describedby={attachmentError ? 'appointment-attachment-error' : undefined}
          onChange={(event) => chooseFile(event.target.files?.[0])}
          className="mt-1 block text-sm"
        />
        {attachmentError ? (
          <p id="appointment-attachment-error" role="alert" className="mt-1 text-sm text-red-700">
            {attachmentError}
          </p>
        ) : null}
      </div>
      <div className="flex gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {editing ? 'Save changes' : 'Add appointment'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function changedFields<T extends Record<string, unknown>>(
  values: T,
  start: Record<string, unknown>,
): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([key, value]) => start[key] !== value),
  ) as Partial<T>;
}

/** The date-time picker: the platform's own (works offline, on phones, with keyboard) in 30-minute steps. */
function DateTimeField(props: {
  name: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = 'appointment-date';
  return (
    <div className="mb-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Date and time
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      </label>
      <input
        id={id}
        name={props.name}
        type="datetime-local"
        step={1800}
        value={props.value}
        aria-required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        className={`mt-1 block w-full rounded-md border px-3 py-2 text-base ${props.error ? 'border-red-600' : 'border-slate-400'}`}
      />
      {props.error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
