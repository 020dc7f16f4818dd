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

export function recordsOf<Fields extends z.ZodObject>(fields: Fields, messages: RecordMessages) {
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
    /** POST {path}: the fields, the patient, and the id the device minted. */
    create: fields.extend({ id: uuid('id'), patient_id: uuid('patient_id') }).extend(editMetaSchema.shape),
    /** PUT {path}/:id: the fields that changed. */
    update: fields.partial().extend(editMetaSchema.shape),
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
  };
}

export type RecordsOf = ReturnType<typeof recordsOf>;
