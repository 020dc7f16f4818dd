import { useMemo } from 'react';
import type { z } from 'zod';
import { parseSpokenDate } from '../../../domain/spoken-date';
import { SelectField, TextAreaField, TextField } from '../../ui/fields';
import { useFormSubmit } from '../../ui/form';
import { FormSheet } from '../../ui/form-sheet';
import { useZodForm } from '../../ui/use-zod-form';
import { WithVoiceInput } from '../../ui/with-voice-input';
import { entryFormSchema, type FieldSpec, type FormText } from './history-sections';

// One form for every entry of the history (and the lifestyle), in a sheet: the section says which fields
// it asks. Checked with the domain's schema as the person types (ui/use-schema-form.ts says when errors
// show); the focus starts in the first field and goes to the first problem on a refused save. Text and
// date fields have voice input when speech is on (loaded after the form, as the other forms do).

type Props = {
  /** The sheet's title, which names the form for screen readers. */
  title: string;
  fields: readonly FieldSpec[];
  initial: FormText;
  schema: z.ZodType;
  submitLabel: string;
  /** Gets the checked value; a thrown error is shown above the buttons. */
  onSave: (value: unknown) => Promise<void>;
  onCancel: () => void;
};

/** Whatever the save threw, in its own words (the domain's rules speak plainly). */
const describeFailure = (error: unknown) =>
  error instanceof Error ? error.message : 'This could not be saved.';

export function HistoryEntrySheet({ title, fields, initial, schema, submitLabel, onSave, onCancel }: Props) {
  const formSchema = useMemo(() => entryFormSchema(fields, schema), [fields, schema]);
  const form = useZodForm(formSchema, initial);
  const submission = useFormSubmit(form, onSave, { describe: describeFailure });

  const heard = (spec: FieldSpec) => (transcript: string) => {
    if (spec.kind !== 'date') {
      form.set(spec.name, transcript.trim());
      return null;
    }
    const spoken = parseSpokenDate(transcript, new Date());
    if ('error' in spoken) return spoken.error;
    form.set(spec.name, spoken.date);
    return null;
  };

  return (
    <FormSheet
      title={title}
      data-testid="history-sheet"
      onClose={onCancel}
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      submitLabel={submitLabel}
      busyLabel="Loading..."
      busy={submission.busy}
      onCancel={onCancel}
    >
      {fields.map((spec) => {
        const field = { label: spec.label, ...form.field(spec.name) };
        if (spec.kind === 'select')
          return (
            <SelectField
              key={spec.name}
              {...field}
              required={spec.required}
              options={spec.options ?? []}
              {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
            />
          );
        if (spec.kind === 'notes') return <TextAreaField key={spec.name} {...field} />;
        return (
          <WithVoiceInput key={spec.name} label={spec.label} onTranscript={heard(spec)}>
            <TextField
              {...field}
              required={spec.required}
              {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
              {...(spec.kind === 'date' ? { hint: 'A year, a month or a day.' } : {})}
            />
          </WithVoiceInput>
        );
      })}
    </FormSheet>
  );
}
