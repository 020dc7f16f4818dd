import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { doseTimesFromDirections } from '../../../domain/directions';
import { PRESCRIPTION_MESSAGES, type Prescription } from '../../../domain/prescriptions';
import { PRESCRIPTION_OCR_MESSAGES } from '../../../domain/prescription-ocr';
import type { ApprovedRequest } from '../../../domain/caregivers';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { uploadProblem } from '../../../domain/uploads';
import { userDb, type LocalDoctor } from '../../../local/db';
import { errorMessages } from '../../../local/http-errors';
import { readLabelPhoto } from '../../../local/prescription-ocr';
import {
  addPrescription,
  deviceTimeZone,
  editPrescription,
  type LabelPhoto,
} from '../../../local/prescriptions';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { useOnline } from '../../ui/use-online';
import { FORM_OPTIONS, STATUS_OPTIONS } from './prescription-format';
import {
  Checkbox,
  DoseTimes,
  LabelPhotoBox,
  PHOTO_TYPE_MESSAGE,
  type Reading,
} from './prescription-form-parts';
import {
  changedFields,
  checkFormValues,
  extractionFoundSomething,
  initialFormValues,
  sameTimes,
  withExtraction,
  withSuggestedTimes,
  type PrescriptionFormValues,
} from './prescription-form-values';

// Add or edit a prescription. Saving writes to this device at once (online or not); the sync engine sends
// it when it can. Typing the directions suggests the dose times ('twice daily' -> 08:00 and 20:00) until
// the person changes the times themselves; a photo of the label can fill the form in (online only), for
// the person to review before saving.

type Props = {
  patientId: string;
  caregiverId: string | null;
  /** The patient themself: only they choose which caregivers a missed dose alerts. */
  isPatient: boolean;
  editing: Prescription | null;
  today: string;
  doctors: readonly LocalDoctor[];
  pharmacies: readonly MyPharmacy[];
  caregivers: readonly ApprovedRequest[];
  /** Saved: the toast's words and the prescription's id, to move focus to its card. */
  onDone: (message: string, id: string) => void;
  onCancel: () => void;
};

/** Photos only: the label is read from an image (a PDF can go with lab reports). */
function timeZoneOptions(current: string): { value: string; label: string }[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  const all = zones.includes(current) ? zones : [current, ...zones];
  return all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

export function PrescriptionFormPanel({
  patientId,
  caregiverId,
  isPatient,
  editing,
  today,
  doctors,
  pharmacies,
  caregivers,
  onDone,
  onCancel,
}: Props) {
  const [values, setValues] = useState<PrescriptionFormValues>(() =>
    initialFormValues(editing, today, deviceTimeZone()),
  );
  // Times already saved that the directions would not give were chosen by the person: keep them.
  const [timesEdited, setTimesEdited] = useState(
    () => editing !== null && !sameTimes(editing.times, doseTimesFromDirections(editing.directions).times),
  );
  const [touched, setTouched] = useState<Partial<Record<keyof PrescriptionFormValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [photoFile, setPhotoFile] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [uploadedKey, setUploadedKey] = useState<string | null>(null);
  const [reading, setReading] = useState<Reading>({ state: 'idle' });
  const [readFailure, setReadFailure] = useState<string | null>(null);
  const previewUrl = useMemo(() => (photoFile ? URL.createObjectURL(photoFile) : null), [photoFile]);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);
  const online = useOnline();
  const formRef = useRef<HTMLFormElement>(null);
  const timesLabelId = useId();
  const alertsLabelId = useId();

  // Focus starts in the first field (the sheet keeps focus that is already inside it).
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const { errors } = useMemo(() => checkFormValues(values), [values]);
  const errorOf = (name: keyof PrescriptionFormValues) =>
    submitted || touched[name] ? errors[name] : undefined;

  const set = <Name extends keyof PrescriptionFormValues>(name: Name, value: PrescriptionFormValues[Name]) =>
    setValues((previous) => ({ ...previous, [name]: value }));

  // A text field's props for the shared inputs; its error shows once the person left it changed.
  const text = (name: keyof PrescriptionFormValues & string) => ({
    name,
    value: String(values[name]),
    error: errorOf(name),
    onChange: (value: string) => set(name, value as never),
    // Leaving a field untouched and empty says nothing yet (the save does): an error appearing on blur
    // moves what is below it, and the tap that blurred the field (on Read from photo) would miss.
    onBlur: () => {
      if (String(values[name]).trim() !== '') setTouched((previous) => ({ ...previous, [name]: true }));
    },
  });

  const zoneOptions = useMemo(() => timeZoneOptions(values.time_zone), [values.time_zone]);
  const directionsReading = useMemo(() => doseTimesFromDirections(values.directions), [values.directions]);
  const changeDirections = (directions: string) =>
    setValues((previous) =>
      withSuggestedTimes({ ...previous, directions }, doseTimesFromDirections(directions), timesEdited),
    );

  const changeTimes = (times: string[]) => {
    setTimesEdited(true);
    setValues((previous) => ({ ...previous, times }));
  };

  const choosePhoto = (file: File | undefined) => {
    const problem = file
      ? file.type.startsWith('image/')
        ? uploadProblem('prescription', file)
        : PHOTO_TYPE_MESSAGE
      : null;
    setPhotoError(problem);
    setPhotoFile(file && !problem ? file : null);
    setUploadedKey(null);
    setReading({ state: 'idle' });
    setReadFailure(null);
  };

  const readPhoto = async () => {
    if (!photoFile) return;
    setReadFailure(null);
    if (!navigator.onLine) {
      setReadFailure(PRESCRIPTION_OCR_MESSAGES.offline);
      return;
    }
    setReading({ state: 'reading' });
    try {
      const result = await readLabelPhoto(photoFile, { patientId });
      // The photo is on the server now: the prescription points at it instead of uploading it again.
      setUploadedKey(result.key);
      const found = extractionFoundSomething(result.extraction);
      if (found) {
        setValues((previous) =>
          withExtraction(previous, result.extraction, {
            doctorIds: new Set(doctors.map((doctor) => doctor.doctor_id)),
            pharmacyIds: new Set(pharmacies.map((pharmacy) => pharmacy.pharmacy_id)),
          }),
        );
        if (result.extraction.times.length > 0 || result.extraction.as_needed) setTimesEdited(false);
      }
      setReading({
        state: 'read',
        message: found ? PRESCRIPTION_OCR_MESSAGES.read : PRESCRIPTION_OCR_MESSAGES.nothingFound,
      });
    } catch (error) {
      setReading({ state: 'idle' });
      setReadFailure(failureText(error, READ_FAILED));
    }
  };

  const photo: LabelPhoto | null = uploadedKey
    ? { uploadedKey }
    : photoFile
      ? { blob: photoFile, name: photoFile.name }
      : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { fields } = checkFormValues(values);
    if (!fields || photoError) {
      // The first field with a problem takes the focus, so the person hears what to fix.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      if (editing) {
        await editPrescription(
          userDb(),
          editing.id,
          changedFields(fields, editing),
          new Date(),
          photo ?? undefined,
        );
        onDone(PRESCRIPTION_MESSAGES.updated, editing.id);
      } else {
        const id = await addPrescription(userDb(), {
          ...fields,
          patient_id: patientId,
          caregiver_id: caregiverId,
          photo,
        });
        onDone(PRESCRIPTION_MESSAGES.added, id);
      }
    } catch (error) {
      setFailure(failureText(error, SAVE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  const doctorOptions = doctors.map((doctor) => ({
    value: doctor.doctor_id,
    label: `${doctor.name} (${doctor.speciality})`,
  }));
  // A doctor or pharmacy since removed from the lists stays chosen, named as such.
  if (values.doctor_id && !doctors.some((doctor) => doctor.doctor_id === values.doctor_id))
    doctorOptions.push({ value: values.doctor_id, label: 'A doctor no longer in the list' });
  const pharmacyOptions = pharmacies.map((pharmacy) => ({
    value: pharmacy.pharmacy_id,
    label: pharmacy.city ? `${pharmacy.name}, ${pharmacy.city}` : pharmacy.name,
  }));
  if (values.pharmacy_id && !pharmacies.some((pharmacy) => pharmacy.pharmacy_id === values.pharmacy_id))
    pharmacyOptions.push({ value: values.pharmacy_id, label: 'A pharmacy no longer in the list' });

  const suggestion = values.directions.trim()
    ? directionsReading.understood
      ? timesEdited
        ? `The directions read as: ${directionsReading.summary}. The times below are the ones you chose.`
        : `From the directions: ${directionsReading.summary}.`
      : 'The directions do not say the times clearly: choose them below.'
    : '';

  return (
    <form
      ref={formRef}
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={editing ? 'Edit prescription' : 'New prescription'}
      className="mt-4 grid gap-x-4 sm:grid-cols-2"
    >
      <div className="sm:col-span-2">
        <TextField label="Medicine name" required placeholder="e.g. Metformin" {...text('medicine_name')} />
      </div>
      <TextField label="Strength" placeholder="e.g. 500 mg" {...text('strength')} />
      <SelectField label="Form" options={FORM_OPTIONS} {...text('form')} />

      <LabelPhotoBox
        editing={editing}
        previewUrl={previewUrl}
        photoError={photoError}
        onChoose={choosePhoto}
        canRead={photoFile !== null && reading.state !== 'reading'}
        online={online}
        reading={reading}
        readFailure={readFailure}
        onRead={() => void readPhoto()}
      />

      <div className="sm:col-span-2">
        <TextField
          label="Directions"
          placeholder="e.g. Take 1 tablet by mouth twice daily"
          {...text('directions')}
          onChange={changeDirections}
        />
        <p aria-live="polite" className="-mt-2 mb-4 text-small text-muted" data-testid="directions-summary">
          {suggestion}
        </p>
      </div>

      <fieldset className="mb-4 sm:col-span-2" aria-labelledby={timesLabelId}>
        <legend id={timesLabelId} className="text-small font-medium text-text">
          Dose times
        </legend>
        {values.as_needed ? null : (
          <DoseTimes times={values.times} error={errorOf('times')} onChange={changeTimes} />
        )}
        <Checkbox
          checked={values.as_needed}
          onChange={(checked) => {
            setTimesEdited(true);
            set('as_needed', checked);
          }}
        >
          Take as needed (no fixed times)
        </Checkbox>
        {errorOf('times') ? (
          <p role="alert" className="mt-1 text-small text-danger">
            {errorOf('times')}
          </p>
        ) : null}
      </fieldset>

      <TextField label="Start date" type="date" required {...text('start_date')} />
      <TextField label="End date" type="date" hint="Leave empty if ongoing." {...text('end_date')} />
      <SelectField label="Status" options={STATUS_OPTIONS} {...text('status')} />
      <SelectField
        label="Prescribing doctor"
        placeholder={doctors.length === 0 ? 'No doctors added yet' : '--- Select Doctor ---'}
        options={doctorOptions}
        {...text('doctor_id')}
      />
      <SelectField
        label="Pharmacy"
        placeholder={pharmacies.length === 0 ? 'No pharmacies added yet' : '--- Select Pharmacy ---'}
        options={pharmacyOptions}
        {...text('pharmacy_id')}
      />
      <TextField label="Quantity" inputMode="numeric" placeholder="e.g. 60" {...text('quantity')} />
      <TextField label="Refills" inputMode="numeric" placeholder="e.g. 2" {...text('refills')} />
      <SelectField
        label="Time zone"
        hint="Dose times are in this zone."
        options={zoneOptions}
        {...text('time_zone')}
      />
      <div className="sm:col-span-2">
        <TextField label="Notes" placeholder="e.g. Take with food" {...text('notes')} />
      </div>

      <div className="sm:col-span-2">
        <Checkbox checked={values.reminders} onChange={(checked) => set('reminders', checked)}>
          Reminders at each dose time
        </Checkbox>
      </div>

      {isPatient ? (
        <fieldset className="mb-4 sm:col-span-2" aria-labelledby={alertsLabelId}>
          <legend id={alertsLabelId} className="sr-only">
            Missed-dose alerts
          </legend>
          <TextField
            label="Alert caregivers if a dose is not marked within N minutes"
            inputMode="numeric"
            {...text('alert_after_minutes')}
          />
          {caregivers.length === 0 ? (
            <p className="text-small text-muted">
              Invite a caregiver on the Caregivers page to have them alerted when a dose is missed.
            </p>
          ) : (
            <>
              <p className="text-small font-medium text-text">Caregivers to alert</p>
              {caregivers.map((caregiver) => (
                <Checkbox
                  key={caregiver.caregiver_id}
                  checked={values.alert_caregivers.includes(caregiver.caregiver_id)}
                  onChange={(checked) =>
                    set(
                      'alert_caregivers',
                      checked
                        ? [...values.alert_caregivers, caregiver.caregiver_id]
                        : values.alert_caregivers.filter((id) => id !== caregiver.caregiver_id),
                    )
                  }
                >
                  {caregiver.name}
                </Checkbox>
              ))}
            </>
          )}
          {errorOf('alert_caregivers') ? (
            <p role="alert" className="mt-1 text-small text-danger">
              {errorOf('alert_caregivers')}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      <FormAlert message={failure} className="sm:col-span-2" />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy || reading.state === 'reading'}>
          {editing ? 'Save changes' : 'Add prescription'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * What went wrong, in words: the server's or the network's for a call, the write path's own message
 * (the domain's rules, the offline reading), else `fallback` (never a raw schema dump or a TypeError).
 */
function failureText(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError)
    return errorMessages(error).join(' ');
  if (error instanceof Error && error.name === 'Error' && error.message) return error.message;
  return fallback;
}

const READ_FAILED = 'The label could not be read. Please type the details instead; the photo stays attached.';
const SAVE_FAILED = 'The prescription could not be saved on this device. Please try again.';
