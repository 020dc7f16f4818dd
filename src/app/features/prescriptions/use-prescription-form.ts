import { useMemo, useState } from 'react';
import { doseTimesFromDirections } from '../../../domain/directions';
import type { LabelExtraction } from '../../../domain/prescription-ocr';
import { PRESCRIPTION_MESSAGES, type Prescription } from '../../../domain/prescriptions';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { userDb, type LocalDoctor } from '../../../local/db';
import { addPrescription, deviceTimeZone, editPrescription } from '../../../local/prescriptions';
import { useFormSubmit } from '../../ui/form';
import { failureText } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';
import {
  changedFields,
  initialFormValues,
  prescriptionFormSchema,
  sameTimes,
  withExtraction,
  withSuggestedTimes,
  type FormFields,
} from './prescription-form-values';
import { useLabelPhoto } from './use-label-photo';

// The prescription form's state and its save. Typing the directions suggests the dose times ('twice
// daily' -> 08:00 and 20:00) until the person changes the times themselves; a photo of the label can fill
// the form in (online only), for the person to review before saving. Saving writes to this device at once
// (online or not); the sync engine sends it when it can.

const SAVE_FAILED = 'The prescription could not be saved on this device. Please try again.';

export type PrescriptionFormContext = {
  patientId: string;
  caregiverId: string | null;
  editing: Prescription | null;
  today: string;
  doctors: readonly LocalDoctor[];
  pharmacies: readonly MyPharmacy[];
  /** Saved: the toast's words and the prescription's id, to move focus to its card. */
  onDone: (message: string, id: string) => void;
};

export function usePrescriptionForm({
  patientId,
  caregiverId,
  editing,
  today,
  doctors,
  pharmacies,
  onDone,
}: PrescriptionFormContext) {
  const [initial] = useState(() => initialFormValues(editing, today, deviceTimeZone()));
  const form = useZodForm(prescriptionFormSchema, initial);
  // Times already saved that the directions would not give were chosen by the person: keep them.
  const [timesEdited, setTimesEdited] = useState(
    () => editing !== null && !sameTimes(editing.times, doseTimesFromDirections(editing.directions).times),
  );
  const directionsReading = useMemo(
    () => doseTimesFromDirections(form.values.directions),
    [form.values.directions],
  );

  const changeDirections = (directions: string) =>
    form.update('directions', (previous) =>
      withSuggestedTimes({ ...previous, directions }, doseTimesFromDirections(directions), timesEdited),
    );
  const changeTimes = (times: string[]) => {
    setTimesEdited(true);
    form.set('times', times);
  };
  const changeAsNeeded = (asNeeded: boolean) => {
    setTimesEdited(true);
    form.set('as_needed', asNeeded);
  };

  const applyReading = (extraction: LabelExtraction) => {
    form.setValues((previous) =>
      withExtraction(previous, extraction, {
        doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)),
        pharmacyIds: new Set(pharmacies.map((pharmacy) => pharmacy.pharmacy_id)),
      }),
    );
    if (extraction.times.length > 0 || extraction.as_needed) setTimesEdited(false);
  };
  const photo = useLabelPhoto({ patientId, onRead: applyReading });

  const save = async (fields: FormFields) => {
    if (editing) {
      await editPrescription(
        userDb(),
        editing.id,
        changedFields(fields, editing),
        new Date(),
        photo.photo ?? undefined,
      );
      onDone(PRESCRIPTION_MESSAGES.updated, editing.id);
      return;
    }
    const id = await addPrescription(userDb(), {
      ...fields,
      patient_id: patientId,
      caregiver_id: caregiverId,
      photo: photo.photo,
    });
    onDone(PRESCRIPTION_MESSAGES.added, id);
  };
  const submission = useFormSubmit(form, save, {
    blocked: () => photo.error !== null,
    describe: failureText(SAVE_FAILED),
  });

  return {
    form,
    photo,
    timesEdited,
    directionsReading,
    changeDirections,
    changeTimes,
    changeAsNeeded,
    submission,
  };
}

export type PrescriptionFormState = ReturnType<typeof usePrescriptionForm>;
