import type { z } from 'zod';
import type { RecordsOf } from '../domain/resources/records-of';
import { recordsOfResource, type RecordsResource } from '../domain/resources/records-list';
import type { KincareDb } from './db';
import { changedFieldsOf, enqueue } from './outbox';

// The write path of a synced resource served from its declaration alone (its `records`): every add, edit
// and delete is checked against its schema and the checks of its fields together, and lands in its table
// and the outbox in one transaction (outbox.ts), as every resource's write path does. A resource with
// writes of its own (a file to keep, a name-based id) has a module of its own beside this one.

/** The keys of the resources this write path serves. */
type DeclaredResource = RecordsResource;

const recordsOf = (resource: DeclaredResource): RecordsOf => recordsOfResource(resource);

/** A record's fields as entered; the error's issues name the field that is wrong (for the form). */
export class RecordInputError extends Error {
  constructor(readonly issues: readonly { field: string; message: string }[]) {
    super(issues[0]?.message ?? 'This is not valid.');
    this.name = 'RecordInputError';
  }
}

function checked(records: RecordsOf, fields: unknown): Record<string, unknown> {
  const parsed = records.checkedFields.safeParse(fields);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw new RecordInputError(
    parsed.error.issues.map((issue: z.core.$ZodIssue) => ({
      field: issue.path.join('.'),
      message: issue.message,
    })),
  );
}

/** Adds a record for the patient; answers its id. `caregiverId`: who made it when a caregiver did. */
export async function addRecord(
  db: KincareDb,
  resource: DeclaredResource,
  input: { patientId: string; caregiverId: string | null; fields: unknown },
  now = new Date(),
): Promise<string> {
  const fields = checked(recordsOf(resource), input.fields);
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const payload = {
    ...fields,
    id,
    patient_id: input.patientId,
    caregiver_id: input.caregiverId,
    created_at: stamp,
    updated_at: stamp,
  };
  await enqueue(db, { resource, id, op: 'create', payload }, now.getTime());
  return id;
}

/** Changes a record: only the fields that changed are sent, so edits made elsewhere to others survive. */
export async function editRecord(
  db: KincareDb,
  resource: DeclaredResource,
  id: string,
  changes: Record<string, unknown>,
  now = new Date(),
): Promise<void> {
  const current = await db.viewOf(resource).get(id);
  if (!current) throw new Error('This record no longer exists.');
  // The whole record is checked as it will be: two fields that must agree may change one at a time.
  const records = recordsOf(resource);
  const after = checked(records, { ...current, ...changes });
  const patch = changedFieldsOf(
    current,
    Object.fromEntries(Object.keys(changes).map((field) => [field, after[field]])),
  );
  if (Object.keys(patch).length === 0) return;
  await enqueue(
    db,
    { resource, id, op: 'update', payload: { ...patch, updated_at: now.toISOString() } },
    now.getTime(),
  );
}

export async function removeRecord(
  db: KincareDb,
  resource: DeclaredResource,
  id: string,
  now = new Date(),
): Promise<void> {
  await enqueue(db, { resource, id, op: 'delete' }, now.getTime());
}
