import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { parseSpokenDate } from '../../../domain/spoken-date';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { WithVoiceInput } from '../../ui/with-voice-input';
import type { FieldSpec, FormText } from './history-sections';
import { valueOfFormText } from './history-sections';

// One form for every entry of the history (and the lifestyle): the section says which fields it asks.
// Checked with the domain's schema as the person types (errors show once a field was left or on save),
// the focus starts in the first field and goes to the first problem on a refused save. Text and date
// fields have voice input when speech is on (loaded after the form, as the other forms do).

type Props = {
  /** Names the form for screen readers (the sheet's title). */
  label: string;
  fields: readonly FieldSpec[];
  initial: FormText;
  schema: z.ZodType;
  submitLabel: string;
  /** Gets the checked value; a thrown error is shown above the buttons. */
  onSave: (value: unknown) => Promise<void>;
  onCancel: () => void;
};

function NotesField(props: {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = useId();
  return (
    <div className="mb-4">
      <label htmlFor={id} className="block text-small font-medium text-text">
        {props.label}
      </label>
      <textarea
        id={id}
        name={props.name}
        rows={3}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        className={`mt-1 block min-h-11 w-full min-w-0 rounded-control border bg-surface px-3 py-2 text-base text-text shadow-sm focus:outline-none focus:ring-2 focus:ring-focus ${
          props.error ? 'border-danger' : 'border-border-strong'
        }`}
      />
      {props.error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-small text-danger">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function HistoryEntryForm({ label, fields, initial, schema, submitLabel, onSave, onCancel }: Props) {
  const [values, setValues] = useState<FormText>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const errors = useMemo(() => {
    const found: Record<string, string> = {};
    const result = schema.safeParse({ id: crypto.randomUUID(), ...valueOfFormText(fields, values) });
    if (!result.success)
      for (const issue of result.error.issues) {
        const key = String(issue.path[0] ?? '');
        found[key] ??= issue.message;
      }
    return found;
  }, [schema, fields, values]);

  const set = (name: string, value: string) => setValues((previous) => ({ ...previous, [name]: value }));
  const common = (spec: FieldSpec) => ({
    label: spec.label,
    name: spec.name,
    value: values[spec.name] ?? '',
    error: submitted || touched[spec.name] ? errors[spec.name] : undefined,
    onChange: (value: string) => set(spec.name, value),
    onBlur: () => setTouched((previous) => ({ ...previous, [spec.name]: true })),
  });

  const heard = (spec: FieldSpec) => (transcript: string) => {
    if (spec.kind !== 'date') {
      set(spec.name, transcript.trim());
      return null;
    }
    const spoken = parseSpokenDate(transcript, new Date());
    if ('error' in spoken) return spoken.error;
    set(spec.name, spoken.date);
    return null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (Object.keys(errors).length > 0) {
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setBusy(true);
    try {
      await onSave(valueOfFormText(fields, values));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'This could not be saved.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      noValidate
      aria-label={label}
      onSubmit={(event) => void submit(event)}
      className="mt-4"
    >
      {fields.map((spec) => {
        if (spec.kind === 'select')
          return (
            <SelectField
              key={spec.name}
              {...common(spec)}
              required={spec.required}
              options={spec.options ?? []}
              {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
            />
          );
        if (spec.kind === 'notes') return <NotesField key={spec.name} {...common(spec)} />;
        return (
          <WithVoiceInput key={spec.name} label={spec.label} onTranscript={heard(spec)}>
            <TextField
              {...common(spec)}
              required={spec.required}
              {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
              {...(spec.kind === 'date' ? { hint: 'A year, a month or a day.' } : {})}
            />
          </WithVoiceInput>
        );
      })}
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? 'Loading...' : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
