import { z } from 'zod';
import { editMetaSchema } from './record-meta';
import {
  EMPTY_LIFESTYLE,
  HISTORY_ENTRY_SCHEMAS,
  HISTORY_LISTS,
  isHistoryList,
  MEDICAL_HISTORY_MESSAGES,
  medicalHistoryFieldsSchema,
  type HistoryEntry,
  type HistoryListField,
  type Lifestyle,
  type MedicalHistoryFields,
} from './medical-history-fields';

// The patient's medical history (README.md beside this file; these fields are designed):
// conditions, allergies, surgeries, family history, immunizations and lifestyle. One synced record per
// patient (resource `medical_history`) whose id is made from the patient (medicalHistoryId), so every
// device knows it before anything is stored and two devices creating it offline write the same record.
//
// The record merge (services/records.ts) keeps the later edit of each TOP-LEVEL field. So that two devices
// adding, editing or removing different entries offline never lose one another's, every entry of a list
// is a field of its own in the stored record: `<list>:<entry id>` holding the entry, or null once removed
// (its tombstone: a removal merges per entry too). `lifestyle` is one field, and so is
// `share_mood_screening`, the patient's choice to share their check-ins' mood screening with caregivers.
// assembleHistory is the one place stored fields become the lists the API and the screens show. The
// fields and their rules are in medical-history-fields.ts, exported from here too.

export * from './medical-history-fields';

const M = MEDICAL_HISTORY_MESSAGES;

/** An entry's field in the stored record: `<list>:<entry id>`, the id in lower case. */
export type EntryKey = `${HistoryListField}:${string}`;
/** Entry fields: each the entry, or null once it was removed (its tombstone). */
export type EntryFields = Record<EntryKey, HistoryEntry | null>;

export const entryKey = (list: HistoryListField, id: string): EntryKey => `${list}:${id.toLowerCase()}`;

/** The list and entry id a field's name stands for; null for any other field. */
export function parseEntryKey(field: string): { list: HistoryListField; id: string } | null {
  const at = field.indexOf(':');
  const list = field.slice(0, at);
  return at > 0 && isHistoryList(list) ? { list, id: field.slice(at + 1).toLowerCase() } : null;
}

/** The change that adds or replaces one entry: its field alone. */
export const entryPatch = <List extends HistoryListField>(list: List, entry: HistoryEntry<List>) =>
  ({ [entryKey(list, entry.id)]: { ...entry, id: entry.id.toLowerCase() } }) as EntryFields;

/** The change that removes one entry: its field, null. */
export const removalPatch = (list: HistoryListField, id: string) =>
  ({ [entryKey(list, id)]: null }) as EntryFields;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every entry field of stored data, tombstones too. A whole list in it (a record written before entries
 * had fields of their own, or the API's assembled form) is read as entry fields; an entry's own field wins.
 */
export function entryFieldsOf(data: Readonly<Record<string, unknown>>): EntryFields {
  const fields: Record<string, HistoryEntry | null> = {};
  for (const list of HISTORY_LISTS) {
    const whole = data[list];
    if (Array.isArray(whole))
      for (const entry of whole)
        if (isObject(entry) && typeof entry.id === 'string')
          Object.assign(fields, entryPatch(list, entry as HistoryEntry));
  }
  for (const [field, value] of Object.entries(data)) {
    const named = parseEntryKey(field);
    if (named && (value === null || isObject(value)))
      fields[entryKey(named.list, named.id)] =
        value === null ? null : ({ ...value, id: named.id } as HistoryEntry);
  }
  return fields;
}

const addedTime = (entry: HistoryEntry) => (entry.added_at ? Date.parse(entry.added_at) || 0 : 0);

/**
 * THE assembler: stored data (entry fields, tombstones, lifestyle; whole lists too, see entryFieldsOf) as
 * the lists people see, removed entries dropped, each list in the order its entries were added, then by id.
 */
export function assembleHistory(data: Readonly<Record<string, unknown>>): MedicalHistoryFields {
  const lists: Record<HistoryListField, HistoryEntry[]> = {
    conditions: [],
    allergies: [],
    surgeries: [],
    family_history: [],
    immunizations: [],
  };
  for (const [field, entry] of Object.entries(entryFieldsOf(data))) {
    const named = parseEntryKey(field);
    if (named && entry) lists[named.list].push(entry);
  }
  for (const list of HISTORY_LISTS)
    lists[list].sort((a, b) => addedTime(a) - addedTime(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lifestyle = isObject(data.lifestyle) ? data.lifestyle : {};
  return {
    ...(lists as MedicalHistoryFields),
    lifestyle: { ...EMPTY_LIFESTYLE, ...lifestyle },
    // Off unless the patient turned it on: a record that never said so does not share.
    share_mood_screening: data.share_mood_screening === true,
  };
}

/**
 * The record as the device keeps it and the server stores it: id, patient_id, version and times, and its
 * stored fields (entry fields, `lifestyle`, `share_mood_screening`), only those ever written (a field
 * never written is absent, so it never overwrites another device's edit of it). Read it through
 * assembledHistory.
 */
export type MedicalHistory = {
  id: string;
  patient_id: string;
  version: number;
  created_at?: string;
  updated_at?: string;
  /** Names the queued change if the server ever refuses it (outbox.ts). */
  label?: string;
  [field: string]: unknown;
};

/** The record assembled: its lists and lifestyle. */
export type FullMedicalHistory = Pick<MedicalHistory, 'id' | 'patient_id' | 'version'> & {
  created_at?: string;
  updated_at?: string;
} & MedicalHistoryFields;

export function assembledHistory(record: MedicalHistory): FullMedicalHistory {
  const { id, patient_id, version, created_at, updated_at } = record;
  return {
    id,
    patient_id,
    version,
    ...(typeof created_at === 'string' ? { created_at } : {}),
    ...(typeof updated_at === 'string' ? { updated_at } : {}),
    ...assembleHistory(record),
  };
}

/** A save, checked: the entry fields sent (devices) and the lists sent whole (REST). */
export type MedicalHistorySave = {
  patient_id?: string;
  id?: string;
  base_version?: number;
  changed_at?: number;
  lifestyle?: Lifestyle;
  share_mood_screening?: boolean;
  /** Lists sent whole: each list is now exactly this. */
  lists: Partial<Omit<MedicalHistoryFields, 'lifestyle' | 'share_mood_screening'>>;
  /** Entry fields sent: only the entries that changed. */
  entries: EntryFields;
};

type CheckedEntryField =
  { key: EntryKey; entry: HistoryEntry | null } | { problem: string; path: PropertyKey[] };

/**
 * One entry field sent, checked: its name (`<list>:<uuid>`, once, its list not also sent whole) and its
 * value (an entry of that id, or null).
 */
function checkEntryField(field: string, value: unknown, save: MedicalHistorySave): CheckedEntryField {
  const named = parseEntryKey(field);
  if (!named) return { problem: M.entryFieldInvalid, path: [] };
  if (!z.uuid().safeParse(named.id).success) return { problem: M.entryFieldIdInvalid, path: [] };
  const key = entryKey(named.list, named.id);
  if (key in save.entries) return { problem: M.duplicateEntryId, path: [] };
  if (save.lists[named.list] !== undefined) return { problem: M.listAndEntries, path: [] };
  if (value === null) return { key, entry: null };
  if (!isObject(value)) return { problem: M.entryValueInvalid, path: [] };
  const parsed = HISTORY_ENTRY_SCHEMAS[named.list].safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return { problem: issue?.message ?? M.entryValueInvalid, path: issue?.path ?? [] };
  }
  if (parsed.data.id.toLowerCase() !== named.id) return { problem: M.entryIdMismatch, path: ['id'] };
  return { key, entry: { ...parsed.data, id: named.id } };
}

/**
 * PUT /api/medical-history (and a pushed create or update of `medical_history`): entry fields
 * `{ "<list>:<id>": entry | null }` (what devices send), whole lists (`{ allergies: [...] }`, REST), the
 * lifestyle; only what is sent changes. patient_id and id, when sent, must be the caller's own (the id is
 * made from it). Other fields (a device's label and times) are not stored.
 */
export const putMedicalHistoryBodySchema = z
  .looseObject({
    ...medicalHistoryFieldsSchema.partial().shape,
    patient_id: z.uuid({ error: M.patientInvalid }).optional(),
    id: z.uuid({ error: M.idInvalid }).optional(),
    ...editMetaSchema.shape,
  })
  .transform((body, context): MedicalHistorySave => {
    const { patient_id, id, base_version, changed_at, lifestyle, share_mood_screening } = body;
    const save: MedicalHistorySave = {
      patient_id,
      id,
      base_version,
      changed_at,
      lifestyle,
      share_mood_screening,
      lists: {},
      entries: {},
    };
    for (const list of HISTORY_LISTS)
      if (body[list] !== undefined) Object.assign(save.lists, { [list]: body[list] });
    for (const [field, value] of Object.entries(body)) {
      if (!field.includes(':')) continue;
      const checked = checkEntryField(field, value, save);
      if ('problem' in checked) {
        context.addIssue({ code: 'custom', message: checked.problem, path: [field, ...checked.path] });
        return z.NEVER;
      }
      save.entries[checked.key] = checked.entry;
    }
    return save;
  });
export type PutMedicalHistoryBody = z.input<typeof putMedicalHistoryBodySchema>;

/**
 * What a save stores: its entry fields, each whole list as entry fields (every entry sent, and null for
 * each live stored entry not sent), and the lifestyle. Each entry keeps an added_at: the one sent, else
 * the stored entry's, else the edit's time (a whole list's new entries a millisecond apart, as sent).
 */
export function storedPatchOf(
  save: MedicalHistorySave,
  stored: Readonly<Record<string, unknown>>,
  editedAt: number,
): Record<string, unknown> {
  const current = entryFieldsOf(stored);
  const patch: Record<string, unknown> = {};
  const put = (key: EntryKey, entry: HistoryEntry | null, offset: number) => {
    const addedAt = entry?.added_at ?? current[key]?.added_at ?? new Date(editedAt + offset).toISOString();
    patch[key] = entry && { ...entry, added_at: addedAt };
  };
  for (const [key, entry] of Object.entries(save.entries)) put(key as EntryKey, entry, 0);
  for (const list of HISTORY_LISTS) {
    const whole: readonly HistoryEntry[] | undefined = save.lists[list];
    if (!whole) continue;
    whole.forEach((entry, index) =>
      put(entryKey(list, entry.id), { ...entry, id: entry.id.toLowerCase() }, index),
    );
    for (const [key, entry] of Object.entries(current))
      if (entry && parseEntryKey(key)?.list === list && !(key in patch)) patch[key] = null;
  }
  if (save.lifestyle) patch.lifestyle = save.lifestyle;
  if (save.share_mood_screening !== undefined) patch.share_mood_screening = save.share_mood_screening;
  return patch;
}

export const medicalHistorySchema = medicalHistoryFieldsSchema.extend({
  id: z.string(),
  patient_id: z.string(),
  version: z.number(),
  /** Absent while nothing of the history is stored. */
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

export const medicalHistoryQuerySchema = z.object({
  patient: z.uuid({ error: M.patientInvalid }).optional(),
});

export const medicalHistoryResponseSchema = z.object({
  success: z.literal(true),
  data: medicalHistorySchema,
});

export const medicalHistorySaveResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: medicalHistorySchema,
  merged: z.boolean(),
});
