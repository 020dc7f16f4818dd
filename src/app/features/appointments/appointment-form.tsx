import { useMemo, useState } from 'react';
import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_STEP_MINUTES,
  appointmentFormSchema,
  isoToZonedInput,
  zonedInputToIso,
  type Appointment,
  type AppointmentForm,
} from '../../../domain/appointments';
import { appointmentZone } from '../../../domain/appointment-zones';
import { addAppointment, editAppointment, type Attachment } from '../../../local/appointments';
import { ACCEPTED_UPLOAD_TYPES, uploadProblem } from '../../../domain/uploads';
import { userDb } from '../../../local/db';
import { FileField, SelectField, TextField } from '../../ui/fields';
import { Form, useFormSubmit } from '../../ui/form';
import { timeZoneOptions } from '../../ui/time-zones';
import { useZodForm } from '../../ui/use-zod-form';
import { useDoctors } from './use-appointments';

// Create or edit an appointment. Saving writes to this device at once (online or not); the sync engine
// sends it when it can, so the form never waits on the network.

type Props = {
  patientId: string;
  caregiverId: string | null;
  editing: Appointment | null;
  /** The patient's zone: a new appointment's, and that of one stored without a zone. */
  patientZone: string;
  /** Saved: the toast's words and the appointment's id, to move focus to it in the list. */
  onDone: (message: string, id: string) => void;
  onCancel: () => void;
};

// The date and time are typed on the clock of the visit's place, its zone beside them (the patient's by
// default, another for a visit elsewhere); changing the zone keeps the time typed.
function initialValues(editing: Appointment | null, patientZone: string) {
  const zone = editing ? appointmentZone(editing, patientZone) : patientZone;
  return {
    appointment_title: editing?.appointment_title ?? '',
    appointment_date: editing ? isoToZonedInput(editing.appointment_date, zone) : '',
    time_zone: zone,
    doctor_id: editing?.doctor_id ?? '',
    location: editing?.location ?? '',
    notes: editing?.notes ?? '',
    status: editing?.status ?? 'scheduled',
  };
}

export function AppointmentFormPanel({
  patientId,
  caregiverId,
  editing,
  patientZone,
  onDone,
  onCancel,
}: Props) {
  const [initial] = useState(() => initialValues(editing, patientZone));
  const form = useZodForm(appointmentFormSchema, initial);
  const doctors = useDoctors(patientId);
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [attachmentError, setAttachmentError] = useState<string | null>(null);

  const chooseFile = (file: File | undefined) => {
    const problem = file ? uploadProblem('appointment', file) : null;
    setAttachmentError(problem);
    setAttachment(file && !problem ? { blob: file, name: file.name } : null);
  };

  // The value is the directory's doctor_id (what the server keeps on the appointment). A doctor since
  // removed from the list stays chosen, named as such, so saving other changes does not drop them.
  const doctorOptions = doctors.map((doctor) => ({
    value: doctor.doctor_id,
    label: `${doctor.name} (${doctor.speciality})`,
  }));
  if (editing?.doctor_id && !doctors.some((doctor) => doctor.doctor_id === editing.doctor_id))
    doctorOptions.push({ value: editing.doctor_id, label: 'A doctor no longer in the list' });

  const save = async (values: AppointmentForm) => {
    const fields = {
      ...values,
      appointment_date: zonedInputToIso(values.appointment_date, values.time_zone) ?? '',
      doctor_id: values.doctor_id || null,
    };
    // Only what the person changed in this form: another tab or device may have changed the rest.
    if (editing) {
      const changes = changedFields(fields, {
        ...initial,
        appointment_date: editing.appointment_date,
        // One stored without a zone keeps none until the person picks another: it reads as the patient's.
        time_zone: editing.time_zone ?? initial.time_zone,
        doctor_id: editing.doctor_id,
      });
      await editAppointment(userDb(), editing.id, changes, new Date(), attachment ?? undefined);
      onDone('Appointment updated', editing.id);
      return;
    }
    const id = await addAppointment(userDb(), {
      ...fields,
      patient_id: patientId,
      caregiver_id: caregiverId,
      attachment,
    });
    onDone('Appointment added', id);
  };
  const submission = useFormSubmit(form, save, { blocked: () => attachmentError !== null });
  const { field } = form;
  const zone = form.values.time_zone;
  const zones = useMemo(() => timeZoneOptions(zone), [zone]);

  return (
    <Form
      label={editing ? 'Edit appointment' : 'New appointment'}
      focusFirstField
      columns={2}
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      submitLabel={editing ? 'Save changes' : 'Add appointment'}
      busy={submission.busy}
      onCancel={onCancel}
    >
      <TextField
        label="Title"
        required
        placeholder="e.g. Cardiology check-up"
        {...field('appointment_title')}
      />
      {/* The platform's own picker: works offline, on phones and with a keyboard. Its arrows step by
          15 minutes; any typed minute is kept (the form does not ask the browser to check the step). */}
      <TextField
        label="Date and time"
        type="datetime-local"
        step={APPOINTMENT_STEP_MINUTES * 60}
        required
        {...field('appointment_date')}
      />
      <SelectField
        label="Time zone"
        hint="The date and time are on this zone's clock: the place of the visit."
        options={zones}
        {...field('time_zone')}
      />
      <SelectField
        label="Doctor"
        placeholder={doctors.length === 0 ? 'No doctors added yet' : '--- Select Doctor ---'}
        options={doctorOptions}
        {...field('doctor_id')}
      />
      <SelectField
        label="Status"
        options={APPOINTMENT_STATUSES.map((status) => ({
          value: status,
          label: status[0]?.toUpperCase() + status.slice(1),
        }))}
        {...field('status')}
      />
      <TextField label="Location" placeholder="Clinic, address or video link" {...field('location')} />
      <TextField label="Notes" placeholder="What to bring, questions to ask" {...field('notes')} />
      <div className="sm:col-span-2">
        <FileField
          label={`${editing?.attachment_key ? 'Replace the attachment' : 'Attachment'} (a photo or PDF of a referral letter or appointment card)`}
          accept={ACCEPTED_UPLOAD_TYPES.appointment.join(',')}
          error={attachmentError}
          onChoose={chooseFile}
        />
      </div>
    </Form>
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
