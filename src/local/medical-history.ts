import {
  medicalHistoryFieldsSchema,
  medicalHistoryId,
  MEDICAL_HISTORY_FIELDS,
  withHistoryDefaults,
  type FullMedicalHistory,
  type HistoryListField,
  type Lifestyle,
  type MedicalHistory,
  type MedicalHistoryFields,
} from '../domain/medical-history';
import type { KincareDb } from './db';
import { changedFieldsOf, enqueue } from './outbox';

// The write path of the medical history: every change is checked against the domain's rules and lands in
// the device's table and the outbox in one transaction (outbox.ts), so it works offline. The history is
// one record per patient whose id is made from the patient (medicalHistoryId). While this device has no
// copy from the server (version 0) each change is queued as a create carrying the fields this device has
// written, which the server merges into the record if another device made it meanwhile; once the server
// answered, a change is an update of the one field that changed, on the version the person saw.

const RESOURCE = 'medical_history';

/** What names the queued change if the server ever refuses it (the outbox's label). */
const LABELS: Record<keyof MedicalHistoryFields, string> = {
  conditions: 'Medical history: conditions',
  allergies: 'Medical history: allergies',
  surgeries: 'Medical history: surgeries',
  family_history: 'Medical history: family history',
  immunizations: 'Medical history: immunizations',
  lifestyle: 'Medical history: lifestyle',
};

/** The patient's history as this device holds it (every field, an absent one empty). */
export async function historyOf(db: KincareDb, patientId: string): Promise<FullMedicalHistory> {
  const id = await medicalHistoryId(patientId);
  const row = await db.medical_history.get(id);
  return withHistoryDefaults(row ?? { id, patient_id: patientId, version: 0 });
}

/** The first problem of a value of one field, in the domain's words, as an Error. */
function checked<Field extends keyof MedicalHistoryFields>(
  field: Field,
  value: unknown,
): MedicalHistoryFields[Field] {
  const result = medicalHistoryFieldsSchema.shape[field].safeParse(value);
  if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This change is not valid.');
  return result.data as MedicalHistoryFields[Field];
}

/** The fields this device has written into a record it has no server copy of. */
function writtenFields(row: MedicalHistory | undefined): Partial<MedicalHistoryFields> {
  if (!row) return {};
  return Object.fromEntries(
    MEDICAL_HISTORY_FIELDS.filter((field) => row[field] !== undefined).map((field) => [field, row[field]]),
  ) as Partial<MedicalHistoryFields>;
}

/** Saves one field of the patient's history (a whole list, or the lifestyle). Nothing when unchanged. */
export async function saveHistoryField<Field extends keyof MedicalHistoryFields>(
  db: KincareDb,
  patientId: string,
  field: Field,
  value: MedicalHistoryFields[Field],
  now = new Date(),
): Promise<void> {
  const valid = checked(field, value);
  const id = await medicalHistoryId(patientId);
  const current = await db.medical_history.get(id);
  const stamp = now.toISOString();
  if (current && current.version > 0) {
    const patch = changedFieldsOf(withHistoryDefaults(current), { [field]: valid });
    if (Object.keys(patch).length === 0) return;
    await enqueue(
      db,
      {
        resource: RESOURCE,
        id,
        op: 'update',
        payload: { ...patch, label: LABELS[field], updated_at: stamp },
      },
      now.getTime(),
    );
    return;
  }
  if (current && JSON.stringify(current[field]) === JSON.stringify(valid)) return;
  await enqueue(
    db,
    {
      resource: RESOURCE,
      id,
      op: 'create',
      payload: {
        ...writtenFields(current),
        [field]: valid,
        id,
        patient_id: patientId,
        label: LABELS[field],
        created_at: current?.created_at ?? stamp,
        updated_at: stamp,
      },
    },
    now.getTime(),
  );
}

type EntryOf<Field extends HistoryListField> = MedicalHistoryFields[Field][number];

/** Adds an entry to a list, or replaces the entry of the same id. */
export async function saveHistoryEntry<Field extends HistoryListField>(
  db: KincareDb,
  patientId: string,
  field: Field,
  entry: EntryOf<Field>,
  now = new Date(),
): Promise<void> {
  const list = (await historyOf(db, patientId))[field] as EntryOf<Field>[];
  const at = list.findIndex((item) => item.id === entry.id);
  const next = at === -1 ? [...list, entry] : list.map((item, index) => (index === at ? entry : item));
  await saveHistoryField(db, patientId, field, next as MedicalHistoryFields[Field], now);
}

/** Removes the entry of this id from a list (nothing when it is not there). */
export async function removeHistoryEntry<Field extends HistoryListField>(
  db: KincareDb,
  patientId: string,
  field: Field,
  entryId: string,
  now = new Date(),
): Promise<void> {
  const list = (await historyOf(db, patientId))[field] as EntryOf<Field>[];
  if (!list.some((item) => item.id === entryId)) return;
  const next = list.filter((item) => item.id !== entryId);
  await saveHistoryField(db, patientId, field, next as MedicalHistoryFields[Field], now);
}

export function saveLifestyle(
  db: KincareDb,
  patientId: string,
  lifestyle: Lifestyle,
  now = new Date(),
): Promise<void> {
  return saveHistoryField(db, patientId, 'lifestyle', lifestyle, now);
}
