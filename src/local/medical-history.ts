import {
  assembledHistory,
  entryFieldsOf,
  entryKey,
  entryPatch,
  HISTORY_ENTRY_SCHEMAS,
  lifestyleSchema,
  MAX_HISTORY_ENTRIES,
  MEDICAL_HISTORY_MESSAGES,
  medicalHistoryId,
  removalPatch,
  shareMoodScreeningSchema,
  type FullMedicalHistory,
  type HistoryEntry,
  type HistoryListField,
  type Lifestyle,
  type MedicalHistory,
} from '../domain/medical-history';
import type { z } from 'zod';
import type { KincareDb } from './db';
import { enqueue } from './outbox';

// The write path of the medical history: every change is checked against the domain's rules and lands in
// the device's table and the outbox in one transaction (outbox.ts), so it works offline. The history is
// one record per patient whose id is made from the patient (medicalHistoryId), and every entry is a field
// of its own (`<list>:<id>`: the entry, or null once removed; see domain/medical-history.ts). So a change
// sends only the entry it changed, and another device's changes of other entries survive the merge.
// While this device has no copy from the server (version 0) each change is queued as a create carrying
// every field this device has written (a queued create replaces the row as it is replayed), which the
// server merges into the record if another device made it meanwhile; once the server answered, a change
// is an update of that one field, on the version the person saw.

const RESOURCE = 'medical_history';

/**
 * What names the queued change if the server ever refuses it (the outbox's label, shown with the reason):
 * the list and the entry, since a change is of one entry ("Allergies: Penicillin").
 */
const LIST_TITLES: Record<HistoryListField, string> = {
  conditions: 'Conditions',
  allergies: 'Allergies',
  surgeries: 'Surgeries',
  family_history: 'Family history',
  immunizations: 'Immunizations',
};
const LIFESTYLE_LABEL = 'Medical history: lifestyle';
const MOOD_SCREENING_LABEL = 'Sharing of my mood screening (PHQ-2) with caregivers';

function labelOf(list: HistoryListField, entry: HistoryEntry, removed = false): string {
  const text = (field: string) => {
    const value = (entry as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : '';
  };
  const name: Record<HistoryListField, string> = {
    conditions: text('name'),
    allergies: text('substance'),
    surgeries: text('procedure'),
    family_history: `${text('relative')}: ${text('condition')}`,
    immunizations: text('vaccine'),
  };
  return `${LIST_TITLES[list]}: ${name[list]}${removed ? ' (removed)' : ''}`;
}

/** The patient's history as this device holds it, assembled into lists (every list, an absent one empty). */
export async function historyOf(db: KincareDb, patientId: string): Promise<FullMedicalHistory> {
  const id = await medicalHistoryId(patientId);
  const row = await db.medical_history.get(id);
  return assembledHistory(row ?? { id, patient_id: patientId, version: 0 });
}

/** The value checked by its schema, or the first problem in the domain's words, as an Error. */
function checked<Value>(schema: z.ZodType<Value>, value: unknown): Value {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This change is not valid.');
  return result.data;
}

/** The same value whatever the order of its keys (a stored entry's keys come back in the database's order). */
function sameValue(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown) =>
    JSON.stringify(value, (_key, inner: unknown) =>
      inner && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : 1)))
        : inner,
    );
  return sorted(a) === sorted(b);
}

/**
 * The fields this device has written into a record it has no server copy of: entries (tombstones too), the
 * lifestyle and the mood screening's sharing.
 */
function writtenFields(row: MedicalHistory | undefined): Record<string, unknown> {
  if (!row) return {};
  return {
    ...entryFieldsOf(row),
    ...(row.lifestyle === undefined ? {} : { lifestyle: row.lifestyle }),
    ...(row.share_mood_screening === undefined ? {} : { share_mood_screening: row.share_mood_screening }),
  };
}

/** Queues a change of these stored fields (entry fields, or the lifestyle) of the patient's history. */
async function saveFields(
  db: KincareDb,
  patientId: string,
  fields: Record<string, unknown>,
  label: string,
  now: Date,
): Promise<void> {
  const id = await medicalHistoryId(patientId);
  const current = await db.medical_history.get(id);
  const stamp = now.toISOString();
  const change =
    current && current.version > 0
      ? { op: 'update' as const, payload: { ...fields, label, updated_at: stamp } }
      : {
          op: 'create' as const,
          payload: {
            ...writtenFields(current),
            ...fields,
            id,
            patient_id: patientId,
            label,
            created_at: current?.created_at ?? stamp,
            updated_at: stamp,
          },
        };
  await enqueue(db, { resource: RESOURCE, id, ...change }, now.getTime());
}

/**
 * Adds an entry to a list, or replaces the entry of the same id: queues that entry's field alone. A new
 * entry gets its added_at now (it orders the list); an edited one keeps its own. Nothing when unchanged.
 */
export async function saveHistoryEntry<List extends HistoryListField>(
  db: KincareDb,
  patientId: string,
  list: List,
  entry: HistoryEntry<List>,
  now = new Date(),
): Promise<void> {
  const valid = checked(HISTORY_ENTRY_SCHEMAS[list] as unknown as z.ZodType<HistoryEntry<List>>, entry);
  const entries: HistoryEntry[] = (await historyOf(db, patientId))[list];
  const existing = entries.find((item) => item.id === valid.id.toLowerCase());
  if (!existing && entries.length >= MAX_HISTORY_ENTRIES)
    throw new Error(MEDICAL_HISTORY_MESSAGES.tooManyEntries);
  const added_at = existing?.added_at ?? valid.added_at ?? now.toISOString();
  const patch = entryPatch(list, { ...valid, added_at });
  if (existing && sameValue(existing, patch[entryKey(list, valid.id)])) return;
  await saveFields(db, patientId, patch, labelOf(list, valid), now);
}

/** Removes the entry of this id from a list: queues its field as null (nothing when it is not there). */
export async function removeHistoryEntry(
  db: KincareDb,
  patientId: string,
  list: HistoryListField,
  entryId: string,
  now = new Date(),
): Promise<void> {
  const entries: HistoryEntry[] = (await historyOf(db, patientId))[list];
  const removed = entries.find((item) => item.id === entryId.toLowerCase());
  if (!removed) return;
  await saveFields(db, patientId, removalPatch(list, entryId), labelOf(list, removed, true), now);
}

/** Saves the lifestyle (one field). Nothing when unchanged. */
export async function saveLifestyle(
  db: KincareDb,
  patientId: string,
  lifestyle: Lifestyle,
  now = new Date(),
): Promise<void> {
  const valid = checked(lifestyleSchema, lifestyle);
  const stored = (await db.medical_history.get(await medicalHistoryId(patientId)))?.lifestyle;
  if (stored !== undefined && sameValue(stored, valid)) return;
  await saveFields(db, patientId, { lifestyle: valid }, LIFESTYLE_LABEL, now);
}

/**
 * Turns the sharing of the check-ins' mood screening (PHQ-2) with caregivers on or off: one field of the
 * patient's history, queued like any change of it, so it works offline. Nothing when unchanged.
 */
export async function saveMoodScreeningSharing(
  db: KincareDb,
  patientId: string,
  share: boolean,
  now = new Date(),
): Promise<void> {
  const valid = checked(shareMoodScreeningSchema, share);
  if ((await historyOf(db, patientId)).share_mood_screening === valid) return;
  await saveFields(db, patientId, { share_mood_screening: valid }, MOOD_SCREENING_LABEL, now);
}
