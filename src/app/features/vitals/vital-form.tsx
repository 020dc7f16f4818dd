import { useRef, useState, type FormEvent } from 'react';
import {
  displayUnit,
  PLAUSIBLE,
  VITAL_LABELS,
  VITAL_MESSAGES,
  VITAL_UNITS,
  vitalProblem,
  type Vital,
  type VitalKind,
  type VitalUnit,
  type VitalUnitChoice,
} from '../../../domain/vitals';
import { userDb } from '../../../local/db';
import { addRecord, editRecord, RecordInputError } from '../../../local/record-writes';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { ChoiceGroup } from './choice-group';
import { ValueField } from './value-field';
import { inputOfIso, isoOfInput, nowWithOffset } from './vital-format';

// Enter or correct one reading: the value (or blood pressure's two numbers) with its unit beside it, the
// unit switchable where the kind has two, fasting for blood glucose, when it was taken ("now" unless
// changed) and a note. Checked with the domain's rules and messages (domain/vitals.ts), each shown by its
// field once the field was left with something typed, or once the form was sent: never before anything
// is typed. Saving writes to this device (local/record-writes.ts); the sync sends it when it can.

export const NOT_A_NUMBER = 'Enter the number you measured in digits, for example 72 or 98.6.';

export type FormField = 'value' | 'systolic' | 'diastolic' | 'unit' | 'fasting' | 'measured_at' | 'note';
export type Fasting = 'unsaid' | 'yes' | 'no';
export type VitalFormValues = {
  unit: VitalUnit;
  value: string;
  systolic: string;
  diastolic: string;
  fasting: Fasting;
  /** null: now. */
  when: string | null;
  note: string;
};

/** The value fields of a kind, with the label the form shows and the one its messages use. */
export function valueFieldsOf(
  kind: VitalKind,
): { field: 'value' | 'systolic' | 'diastolic'; label: string; named: string }[] {
  if (kind === 'blood_pressure')
    return [
      { field: 'systolic', label: 'Top number (systolic)', named: 'The top number (systolic)' },
      { field: 'diastolic', label: 'Bottom number (diastolic)', named: 'The bottom number (diastolic)' },
    ];
  return [{ field: 'value', label: VITAL_LABELS[kind], named: VITAL_LABELS[kind] }];
}

/** A typed number ('72', '98.6', '98,6'); NaN when it is not one, null when nothing is typed. */
export function numberOf(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

const fastingOf = (kind: VitalKind, fasting: Fasting) =>
  kind !== 'blood_glucose' || fasting === 'unsaid' ? null : fasting === 'yes';

/**
 * What is wrong with each field as typed: each number on its own (missing, not a number, outside what the
 * unit can read), then the reading as a whole (vitalProblem: the bottom number above the top one, a time
 * in the future), on the field it names.
 */
export function formProblems(
  kind: VitalKind,
  values: VitalFormValues,
  now: number = Date.now(),
): Partial<Record<FormField, string>> {
  const problems: Partial<Record<FormField, string>> = {};
  const range = PLAUSIBLE[values.unit];
  for (const { field, named } of valueFieldsOf(kind)) {
    const value = numberOf(values[field]);
    if (value === null)
      problems[field] =
        kind === 'blood_pressure' ? VITAL_MESSAGES.pressureMissing : VITAL_MESSAGES.valueMissing;
    else if (Number.isNaN(value)) problems[field] = NOT_A_NUMBER;
    else if (value < range.min || value > range.max)
      problems[field] = VITAL_MESSAGES.outOfRange(named, values.unit);
  }
  const measuredAt = values.when === null ? new Date(now).toISOString() : isoOfInput(values.when);
  if (measuredAt === null) problems.measured_at = VITAL_MESSAGES.measuredAtInvalid;
  if (values.note.trim().length > 500) problems.note = VITAL_MESSAGES.noteTooLong;
  if (Object.keys(problems).length > 0 || measuredAt === null) return problems;
  const whole = vitalProblem(
    {
      kind,
      unit: values.unit,
      value: numberOf(values.value),
      systolic: numberOf(values.systolic),
      diastolic: numberOf(values.diastolic),
      fasting: fastingOf(kind, values.fasting),
      measured_at: measuredAt,
    },
    now,
  );
  if (whole) problems[whole.field as FormField] = whole.message;
  return problems;
}

/** The form's values for a new reading of `kind` (in the person's unit) or for the reading being edited. */
export function initialValues(
  kind: VitalKind,
  units: VitalUnitChoice,
  editing: Vital | null,
): VitalFormValues {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : String(value);
  return {
    unit: (editing?.unit as VitalUnit | undefined) ?? displayUnit(kind, units),
    value: text(editing?.value),
    systolic: text(editing?.systolic),
    diastolic: text(editing?.diastolic),
    fasting: editing?.fasting === true ? 'yes' : editing?.fasting === false ? 'no' : 'unsaid',
    when: editing ? inputOfIso(editing.measured_at) : null,
    note: editing?.note ?? '',
  };
}

/** The reading's fields as the write path takes them. */
function fieldsOf(kind: VitalKind, values: VitalFormValues, editing: Vital | null) {
  const pressure = kind === 'blood_pressure';
  const unchangedTime = editing && values.when === inputOfIso(editing.measured_at);
  return {
    kind,
    unit: values.unit,
    value: pressure ? null : numberOf(values.value),
    systolic: pressure ? numberOf(values.systolic) : null,
    diastolic: pressure ? numberOf(values.diastolic) : null,
    fasting: fastingOf(kind, values.fasting),
    // An edit that leaves the time keeps it to the second, and on the clock it was taken by.
    measured_at: unchangedTime
      ? editing.measured_at
      : values.when === null
        ? nowWithOffset()
        : (isoOfInput(values.when, editing?.measured_at) ?? ''),
    note: values.note.trim() === '' ? null : values.note.trim(),
  };
}

const FASTING_CHOICES = [
  { value: 'unsaid', label: 'Not said' },
  { value: 'yes', label: 'Fasting' },
  { value: 'no', label: 'After eating' },
] as const;

type Props = {
  kind: VitalKind;
  patientId: string;
  caregiverId: string | null;
  /** The person's units: a new reading starts in theirs. */
  units: VitalUnitChoice;
  editing: Vital | null;
  /** Saved: the reading's id. */
  onSaved: (id: string) => void;
  onCancel: () => void;
};

export function VitalForm({ kind, patientId, caregiverId, units, editing, onSaved, onCancel }: Props) {
  const [values, setValues] = useState(() => initialValues(kind, units, editing));
  const [touched, setTouched] = useState<ReadonlySet<FormField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [refused, setRefused] = useState<Partial<Record<FormField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const initial = useRef(values);

  const problems = { ...formProblems(kind, values), ...refused };
  const errorOf = (field: FormField) => (submitted || touched.has(field) ? problems[field] : undefined);
  const set = (field: keyof VitalFormValues, value: VitalFormValues[keyof VitalFormValues]) => {
    setRefused({});
    setValues((previous) => ({ ...previous, [field]: value }));
  };
  // Left with something typed (or changed): its error may show. Tabbing through an empty form shows none.
  const leave = (field: FormField, key: keyof VitalFormValues) => () => {
    if (values[key] !== initial.current[key]) setTouched((previous) => new Set(previous).add(field));
  };
  const focusFirstError = () =>
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (Object.keys(problems).length > 0) {
      focusFirstError();
      return;
    }
    setBusy(true);
    try {
      const fields = fieldsOf(kind, values, editing);
      if (editing) {
        const changes = Object.fromEntries(
          Object.entries(fields).filter(
            ([field, value]) =>
              JSON.stringify(editing[field as keyof Vital] ?? null) !== JSON.stringify(value),
          ),
        );
        await editRecord(userDb(), 'vitals', editing.id, changes);
        onSaved(editing.id);
      } else {
        onSaved(await addRecord(userDb(), 'vitals', { patientId, caregiverId, fields }));
      }
    } catch (error) {
      if (error instanceof RecordInputError) {
        setRefused(Object.fromEntries(error.issues.map((issue) => [issue.field, issue.message])));
        focusFirstError();
      } else setFailure('The reading could not be saved on this device. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const unitChoices = VITAL_UNITS[kind] as readonly VitalUnit[];
  return (
    <form
      ref={formRef}
      noValidate
      aria-label={`${editing ? 'Edit' : 'New'} ${VITAL_LABELS[kind].toLowerCase()} reading`}
      onSubmit={(event) => void submit(event)}
      className="mt-4"
    >
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        {valueFieldsOf(kind).map(({ field, label }, index) => (
          <ValueField
            key={field}
            label={label}
            unit={values.unit}
            value={values[field]}
            error={errorOf(field)}
            autoFocus={index === 0}
            onChange={(value) => set(field, value)}
            onBlur={leave(field, field)}
          />
        ))}
      </div>
      {unitChoices.length > 1 ? (
        <ChoiceGroup
          legend="Unit"
          options={unitChoices.map((unit) => ({ value: unit, label: unit }))}
          value={values.unit}
          onChange={(unit) => set('unit', unit)}
        />
      ) : null}
      {kind === 'blood_glucose' ? (
        <ChoiceGroup
          legend="Before or after eating"
          options={FASTING_CHOICES}
          value={values.fasting}
          onChange={(fasting) => set('fasting', fasting)}
        />
      ) : null}
      <WhenField
        value={values.when}
        error={errorOf('measured_at')}
        onChange={(when) => set('when', when)}
        onBlur={leave('measured_at', 'when')}
      />
      <TextField
        label="Note (optional)"
        name="note"
        value={values.note}
        placeholder="e.g. After a walk"
        error={errorOf('note')}
        onChange={(note) => set('note', note)}
        onBlur={leave('note', 'note')}
      />
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          Save
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** When it was taken: now, unless the person changes it (a reading written down earlier). */
function WhenField(props: {
  value: string | null;
  error: string | undefined;
  onChange: (value: string | null) => void;
  onBlur: () => void;
}) {
  const changeRef = useRef<HTMLDivElement>(null);
  if (props.value === null)
    return (
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <p className="text-text">
          <span className="text-small font-medium">Taken: </span>now
        </p>
        <Button
          variant="secondary"
          onClick={() => {
            props.onChange(inputOfIso(nowWithOffset()));
            requestAnimationFrame(() => changeRef.current?.querySelector('input')?.focus());
          }}
        >
          Change time
        </Button>
      </div>
    );
  return (
    <div ref={changeRef}>
      <TextField
        label="When it was taken"
        name="measured_at"
        type="datetime-local"
        value={props.value}
        error={props.error}
        onChange={(value) => props.onChange(value)}
        onBlur={props.onBlur}
      />
    </div>
  );
}
