import { useId, useRef, useState, type FormEvent } from 'react';
import {
  convert,
  displayUnit,
  roundFor,
  VITAL_LABELS,
  VITAL_UNITS,
  type VitalKind,
  type VitalTarget,
  type VitalTargets,
  type VitalUnit,
  type VitalUnitChoice,
} from '../../../domain/vitals';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { ChoiceGroup } from './choice-group';
import { ValueField } from './value-field';
import { numberOf } from './vital-form';
import { shownTarget } from './vital-format';
import { targetProblem, type VitalSettings } from './vital-settings';

// The person's units and targets, edited together: each target is typed in the unit chosen beside it (a
// unit changed here turns the typed target into the new unit), and kept in that unit. A weight needs no
// target (both ends empty); every other kind keeps one.

type Row = { key: string; kind: VitalKind; label: string; optional: boolean };

const ROWS: readonly Row[] = [
  { key: 'systolic', kind: 'blood_pressure', label: 'Blood pressure, top number', optional: false },
  { key: 'diastolic', kind: 'blood_pressure', label: 'Blood pressure, bottom number', optional: false },
  { key: 'pulse', kind: 'pulse', label: VITAL_LABELS.pulse, optional: false },
  { key: 'weight', kind: 'weight', label: VITAL_LABELS.weight, optional: true },
  { key: 'blood_glucose', kind: 'blood_glucose', label: VITAL_LABELS.blood_glucose, optional: false },
  { key: 'temperature', kind: 'temperature', label: VITAL_LABELS.temperature, optional: false },
  {
    key: 'oxygen_saturation',
    kind: 'oxygen_saturation',
    label: VITAL_LABELS.oxygen_saturation,
    optional: false,
  },
];

type Texts = Record<string, { low: string; high: string }>;

function textsOf(settings: VitalSettings): Texts {
  return Object.fromEntries(
    ROWS.map((row) => {
      const part = row.kind === 'blood_pressure' ? (row.key as 'systolic' | 'diastolic') : 'value';
      const target = shownTarget(row.kind, part, settings);
      return [row.key, { low: target ? String(target.low) : '', high: target ? String(target.high) : '' }];
    }),
  );
}

/** A typed end turned into another unit, rounded as that unit is read (left as typed if not a number). */
function converted(text: string, from: VitalUnit, to: VitalUnit): string {
  const value = numberOf(text);
  return value === null || Number.isNaN(value) ? text : String(roundFor(to, convert(value, from, to)));
}

type Props = {
  settings: VitalSettings;
  onSave: (settings: VitalSettings) => string | null;
  onCancel: () => void;
};

export function VitalSettingsForm({ settings, onSave, onCancel }: Props) {
  const [units, setUnits] = useState<VitalUnitChoice>(settings.units);
  const [texts, setTexts] = useState<Texts>(() => textsOf(settings));
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const unitOf = (kind: VitalKind) => displayUnit(kind, units);
  const problemOf = (row: Row): string | null => {
    const { low, high } = texts[row.key] ?? { low: '', high: '' };
    if (row.optional && low.trim() === '' && high.trim() === '') return null;
    const [lowest, highest] = [numberOf(low), numberOf(high)];
    if (Number.isNaN(lowest) || Number.isNaN(highest))
      return `Enter the ends of the ${row.label.toLowerCase()} target in digits, for example 60 and 100.`;
    return targetProblem(row.label, lowest, highest, unitOf(row.kind));
  };

  const switchUnit = (kind: keyof VitalUnitChoice, unit: VitalUnit) => {
    const from = unitOf(kind);
    setUnits((previous) => ({ ...previous, [kind]: unit }));
    setTexts((previous) => {
      const current = previous[kind] ?? { low: '', high: '' };
      return {
        ...previous,
        [kind]: { low: converted(current.low, from, unit), high: converted(current.high, from, unit) },
      };
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (ROWS.some((row) => problemOf(row) !== null)) {
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    const target = (row: Row): VitalTarget | undefined => {
      const { low, high } = texts[row.key] ?? { low: '', high: '' };
      const [lowest, highest] = [numberOf(low), numberOf(high)];
      return lowest === null || highest === null
        ? undefined
        : { low: lowest, high: highest, unit: unitOf(row.kind) };
    };
    const byKey = Object.fromEntries(ROWS.map((row) => [row.key, target(row)]));
    const targets: VitalTargets = {
      pulse: byKey.pulse,
      weight: byKey.weight ?? { low: 0, high: 0, unit: unitOf('weight') },
      blood_glucose: byKey.blood_glucose,
      temperature: byKey.temperature,
      oxygen_saturation: byKey.oxygen_saturation,
    };
    if (byKey.systolic && byKey.diastolic)
      targets.blood_pressure = { systolic: byKey.systolic, diastolic: byKey.diastolic };
    setFailure(onSave({ units, targets }));
  };

  return (
    <form ref={formRef} noValidate aria-label="Units and targets" onSubmit={submit} className="mt-4">
      <ChoiceGroup
        legend="Weight in"
        options={VITAL_UNITS.weight.map((unit) => ({ value: unit, label: unit }))}
        value={units.weight}
        onChange={(unit) => switchUnit('weight', unit)}
      />
      <ChoiceGroup
        legend="Blood glucose in"
        options={VITAL_UNITS.blood_glucose.map((unit) => ({ value: unit, label: unit }))}
        value={units.blood_glucose}
        onChange={(unit) => switchUnit('blood_glucose', unit)}
      />
      <ChoiceGroup
        legend="Temperature in"
        options={VITAL_UNITS.temperature.map((unit) => ({ value: unit, label: unit }))}
        value={units.temperature}
        onChange={(unit) => switchUnit('temperature', unit)}
      />
      {ROWS.map((row) => (
        <TargetRow
          key={row.key}
          row={row}
          unit={unitOf(row.kind)}
          texts={texts[row.key] ?? { low: '', high: '' }}
          problem={submitted ? (problemOf(row) ?? undefined) : undefined}
          onChange={(end, value) =>
            setTexts((previous) => ({
              ...previous,
              [row.key]: { ...(previous[row.key] ?? { low: '', high: '' }), [end]: value },
            }))
          }
        />
      ))}
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit">Save units and targets</Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A target's two ends, with one message for the pair. */
function TargetRow(props: {
  row: Row;
  unit: VitalUnit;
  texts: { low: string; high: string };
  problem: string | undefined;
  onChange: (end: 'low' | 'high', value: string) => void;
}) {
  const id = useId();
  const { row, problem } = props;
  const name = (end: string) => (
    <>
      <span className="sr-only">{row.label} target</span> {end}
    </>
  );
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 font-semibold text-text">
        {row.label} target{row.optional ? ' (optional)' : ''}
      </legend>
      <div className="grid grid-cols-2 gap-x-3">
        <ValueField
          label={name('From')}
          unit={props.unit}
          value={props.texts.low}
          error={undefined}
          {...(problem ? { invalidBy: `${id}-error` } : {})}
          onChange={(value) => props.onChange('low', value)}
          onBlur={() => undefined}
        />
        <ValueField
          label={name('To')}
          unit={props.unit}
          value={props.texts.high}
          error={undefined}
          {...(problem ? { invalidBy: `${id}-error` } : {})}
          onChange={(value) => props.onChange('high', value)}
          onBlur={() => undefined}
        />
      </div>
      {problem ? (
        <p id={`${id}-error`} role="alert" className="-mt-2 mb-4 text-small text-danger">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
