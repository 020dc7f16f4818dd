import { z } from 'zod';
import { partialDateOfText } from '../../../domain/partial-date';
import {
  ALCOHOL_VALUES,
  ALLERGY_SEVERITIES,
  ALLERGY_SEVERITY_LABELS,
  allergySchema,
  CONDITION_STATUSES,
  CONDITION_STATUS_LABELS,
  conditionSchema,
  EXERCISE_VALUES,
  familyHistorySchema,
  immunizationSchema,
  lifestyleSchema,
  SMOKING_VALUES,
  surgerySchema,
  type FullMedicalHistory,
  type HistoryListField,
  type Lifestyle,
} from '../../../domain/medical-history';

// What each section of the medical history screen asks and shows: its fields (as the form lays them out),
// how an entry becomes form text and back, and how an entry reads in the list. The rules and messages are
// the domain's schemas, so the form says what the server would.

// The words for each choice, as the screen shows them.
export const SMOKING_LABELS: Record<(typeof SMOKING_VALUES)[number], string> = {
  never: 'Never smoked',
  former: 'Former smoker',
  current: 'Smokes now',
  unknown: 'Not recorded',
};
export const ALCOHOL_LABELS: Record<(typeof ALCOHOL_VALUES)[number], string> = {
  none: 'No alcohol',
  occasional: 'Occasionally',
  regular: 'Regularly',
  unknown: 'Not recorded',
};
export const EXERCISE_LABELS: Record<(typeof EXERCISE_VALUES)[number], string> = {
  none: 'No exercise',
  light: 'Light',
  moderate: 'Moderate',
  active: 'Very active',
  unknown: 'Not recorded',
};

export type FieldKind = 'text' | 'notes' | 'date' | 'select';
export type FieldSpec = {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  options?: readonly { value: string; label: string }[];
  placeholder?: string;
};
export type FormText = Record<string, string>;
type Entry = { id: string } & Record<string, unknown>;

export type ListSection = {
  field: HistoryListField;
  title: string;
  /** 'condition': the toasts' and buttons' noun. */
  noun: string;
  empty: string;
  fields: readonly FieldSpec[];
  schema: z.ZodType;
  /** The entry's name in the list and on its buttons. */
  nameOf: (entry: Entry) => string;
  /** The entry's other facts, in words. */
  detailsOf: (entry: Entry) => string[];
};

const optionsOf = <Value extends string>(values: readonly Value[], labels: Record<Value, string>) =>
  values.map((value) => ({ value, label: labels[value] }));

const DATE_HINT = 'YYYY-MM-DD, YYYY-MM or YYYY';
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const dated = (prefix: string, value: unknown) =>
  typeof value === 'string' && value ? [`${prefix} ${value}`] : [];
const notes = (value: unknown) => (typeof value === 'string' && value ? [value] : []);

export const LIST_SECTIONS: readonly ListSection[] = [
  {
    field: 'conditions',
    title: 'Conditions',
    noun: 'condition',
    empty: 'No conditions recorded.',
    fields: [
      { name: 'name', label: 'Condition', kind: 'text', required: true, placeholder: 'e.g. Asthma' },
      { name: 'onset', label: 'Onset', kind: 'date', placeholder: DATE_HINT },
      {
        name: 'status',
        label: 'Status',
        kind: 'select',
        options: optionsOf(CONDITION_STATUSES, CONDITION_STATUS_LABELS),
      },
      { name: 'notes', label: 'Notes', kind: 'notes' },
    ],
    schema: conditionSchema,
    nameOf: (entry) => text(entry.name),
    detailsOf: (entry) => [
      CONDITION_STATUS_LABELS[entry.status as keyof typeof CONDITION_STATUS_LABELS] ?? '',
      ...dated('Since', entry.onset),
      ...notes(entry.notes),
    ],
  },
  {
    field: 'allergies',
    title: 'Allergies',
    noun: 'allergy',
    empty: 'No allergies recorded.',
    fields: [
      {
        name: 'substance',
        label: 'Allergy (substance)',
        kind: 'text',
        required: true,
        placeholder: 'e.g. Penicillin',
      },
      { name: 'reaction', label: 'Reaction', kind: 'text', placeholder: 'e.g. Hives' },
      {
        name: 'severity',
        label: 'Severity',
        kind: 'select',
        required: true,
        placeholder: 'Choose a severity',
        options: optionsOf(ALLERGY_SEVERITIES, ALLERGY_SEVERITY_LABELS),
      },
    ],
    schema: allergySchema,
    nameOf: (entry) => text(entry.substance),
    detailsOf: (entry) => [
      ALLERGY_SEVERITY_LABELS[entry.severity as keyof typeof ALLERGY_SEVERITY_LABELS] ?? '',
      ...(text(entry.reaction) ? [`Reaction: ${text(entry.reaction)}`] : []),
    ],
  },
  {
    field: 'surgeries',
    title: 'Surgeries',
    noun: 'surgery',
    empty: 'No surgeries recorded.',
    fields: [
      {
        name: 'procedure',
        label: 'Procedure',
        kind: 'text',
        required: true,
        placeholder: 'e.g. Appendectomy',
      },
      { name: 'date', label: 'Date', kind: 'date', placeholder: DATE_HINT },
      { name: 'notes', label: 'Notes', kind: 'notes' },
    ],
    schema: surgerySchema,
    nameOf: (entry) => text(entry.procedure),
    detailsOf: (entry) => [...dated('On', entry.date), ...notes(entry.notes)],
  },
  {
    field: 'family_history',
    title: 'Family history',
    noun: 'family history entry',
    empty: 'No family history recorded.',
    fields: [
      { name: 'relative', label: 'Relative', kind: 'text', required: true, placeholder: 'e.g. Mother' },
      {
        name: 'condition',
        label: 'Condition',
        kind: 'text',
        required: true,
        placeholder: 'e.g. Type 2 diabetes',
      },
    ],
    schema: familyHistorySchema,
    nameOf: (entry) => `${text(entry.relative)}: ${text(entry.condition)}`,
    detailsOf: () => [],
  },
  {
    field: 'immunizations',
    title: 'Immunizations',
    noun: 'immunization',
    empty: 'No immunizations recorded.',
    fields: [
      { name: 'vaccine', label: 'Vaccine', kind: 'text', required: true, placeholder: 'e.g. Influenza' },
      { name: 'date', label: 'Date', kind: 'date', placeholder: DATE_HINT },
    ],
    schema: immunizationSchema,
    nameOf: (entry) => text(entry.vaccine),
    detailsOf: (entry) => dated('On', entry.date),
  },
];

export const LIFESTYLE_FIELDS: readonly FieldSpec[] = [
  { name: 'smoking', label: 'Smoking', kind: 'select', options: optionsOf(SMOKING_VALUES, SMOKING_LABELS) },
  { name: 'alcohol', label: 'Alcohol', kind: 'select', options: optionsOf(ALCOHOL_VALUES, ALCOHOL_LABELS) },
  {
    name: 'exercise',
    label: 'Exercise',
    kind: 'select',
    options: optionsOf(EXERCISE_VALUES, EXERCISE_LABELS),
  },
  { name: 'notes', label: 'Notes', kind: 'notes' },
];
export const lifestyleFormSchema: z.ZodType = lifestyleSchema;

export function lifestyleLines(lifestyle: Lifestyle): { label: string; value: string }[] {
  return [
    { label: 'Smoking', value: SMOKING_LABELS[lifestyle.smoking] },
    { label: 'Alcohol', value: ALCOHOL_LABELS[lifestyle.alcohol] },
    { label: 'Exercise', value: EXERCISE_LABELS[lifestyle.exercise] },
    ...(lifestyle.notes ? [{ label: 'Notes', value: lifestyle.notes }] : []),
  ];
}

/** The form's text for an entry (a new one: its defaults), every field a string. */
export function formTextOf(fields: readonly FieldSpec[], entry: Record<string, unknown> | null): FormText {
  return Object.fromEntries(
    fields.map((field) => {
      const value = entry?.[field.name];
      if (typeof value === 'string') return [field.name, value];
      // A new entry's select starts on its first choice, unless it must be chosen (it has a placeholder).
      const first = field.kind === 'select' && !field.placeholder ? (field.options?.[0]?.value ?? '') : '';
      return [field.name, first];
    }),
  );
}

/** The form's text as the value the schema checks: an empty date is no date. */
export function valueOfFormText(fields: readonly FieldSpec[], values: FormText): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = values[field.name] ?? '';
      // 'March 2015' is stored as 2015-03: a person writes a month as they would say it.
      if (field.kind === 'date') return [field.name, value.trim() === '' ? null : partialDateOfText(value)];
      if (field.kind === 'select' && value === '') return [field.name, undefined];
      return [field.name, value];
    }),
  );
}

/**
 * A section's form schema for use-schema-form (ui/use-schema-form.ts): the form's text read as the value
 * (`valueOfFormText`) and judged by the section's domain schema (an entry's schema asks for an id: a new
 * one stands in for it), its messages by field; the output is the value, without the id.
 */
export function entryFormSchema(fields: readonly FieldSpec[], schema: z.ZodType) {
  return z.custom<FormText>().transform((values, context) => {
    const value = valueOfFormText(fields, values);
    const result = schema.safeParse({ id: crypto.randomUUID(), ...value });
    if (result.success) return value;
    for (const issue of result.error.issues)
      context.addIssue({ code: 'custom', path: issue.path.slice(0, 1), message: issue.message });
    return z.NEVER;
  });
}

/** The entries of a section, from the history as the domain's assembler gives it. */
export function entriesOf(history: FullMedicalHistory, field: HistoryListField): Entry[] {
  return history[field] as Entry[];
}

export function capitalized(noun: string): string {
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
