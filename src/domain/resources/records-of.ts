import { z } from 'zod';
import { editMetaSchema, recordReceiptSchema } from '../record-meta';

// The shapes of a resource that needs no code of its own on the server (src/server/resources): from the
// fields a person enters, the bodies of its REST calls, the record as the API and the device's table show
// it, and the answers. A resource declares `records: recordsOf(fields, messages)`.

/** What every answer about one of its records says, in words a person reads. */
export type RecordMessages = {
  notFound: string;
  /** A create whose id is taken. */
  exists: string;
  /** An edit of a record deleted meanwhile. */
  deletedElsewhere: string;
  /** The answer to a delete. */
  deleted: string;
  /** The answer to a create and an edit. */
  saved: string;
};

/**
 * `fields`: the record's fields as a person enters them (a plain object schema); `check`: what must hold of
 * them together (a reading's unit must be its kind's), run on every create and on the whole record after
 * an edit; `example`: valid fields, for the tests and the authorization matrix to make one.
 */
export function recordsOf<Fields extends z.ZodObject>(
  fields: Fields,
  options: {
    messages: RecordMessages;
    check?: (record: z.output<Fields>) => { field: string; message: string } | null;
    example: z.input<Fields>;
  },
) {
  const { messages, check } = options;
  const checked = <Schema extends z.ZodType>(schema: Schema) =>
    check
      ? schema.superRefine((value, context) => {
          const problem = check(value as z.output<Fields>);
          if (problem) context.addIssue({ code: 'custom', message: problem.message, path: [problem.field] });
        })
      : schema;
  const uuid = (what: string) => z.uuid({ error: `${what} must be a UUID.` });
  const record = fields.extend({
    id: z.string(),
    patient_id: z.string(),
    version: z.number(),
    /** The caregiver who made it, or null for the patient. */
    caregiver_id: z.string().nullable().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  });
  const data = z.union([record, recordReceiptSchema]);
  return {
    fields,
    /** The fields, checked together. */
    checkedFields: checked(fields),
    /** POST {path}: the fields, the patient, and the id the device minted. */
    create: checked(
      fields.extend({ id: uuid('id'), patient_id: uuid('patient_id') }).extend(editMetaSchema.shape),
    ),
    /** PUT {path}/:id: the fields that changed (a field left out keeps its value: no default fills it in). */
    update: z.object(withoutDefaults(fields.shape)).extend(editMetaSchema.shape),
    record,
    one: z.object({ success: z.literal(true), message: z.string(), data, merged: z.boolean() }),
    list: z.object({ success: z.literal(true), data: z.array(record) }),
    deleted: z.object({
      success: z.literal(true),
      message: z.string(),
      data: z.object({ id: z.string(), version: z.number(), deleted: z.literal(true) }),
    }),
    listQuery: z.object({ patient: uuid('patient').optional() }),
    idParams: z.object({ id: uuid('id') }),
    messages,
    example: options.example,
  };
}

export type RecordsOf = ReturnType<typeof recordsOf>;

/** Every field optional and without its default: an edit names only what it changes. */
function withoutDefaults(shape: z.ZodRawShape): Record<string, z.ZodOptional<z.ZodType>> {
  return Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => [
      field,
      (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : (schema as z.ZodType)).optional(),
    ]),
  );
}
