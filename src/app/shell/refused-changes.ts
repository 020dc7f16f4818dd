import type { AppointmentFields } from '../../domain/appointments';
import { formatDateTime } from '../../domain/clock';
import { BLOB_REFERENCE_PREFIX } from '../../domain/blob-reference';
import type { SyncedResource } from '../../domain/sync';
import type { KincareDb, OutboxEntry } from '../../local/db';

// What the person is told about a change the server refused: which record, and what they had typed, so
// that they can enter it again after the change is discarded (a refused change is rolled back on screen).

type FieldKind = 'text' | 'date-time' | 'choice' | 'doctor' | 'file';
type TypedField<Field extends string> = { field: Field; label: string; kind: FieldKind };

const RESOURCE_NOUN: Record<SyncedResource, string> = {
  appointments: 'appointment',
  doctors: 'doctor',
  pharmacies: 'pharmacy',
  prescriptions: 'prescription',
  dose_marks: 'dose mark',
  lab_reports: 'lab report',
  check_ins: 'check-in answer',
  medical_history: 'medical history',
};

/** The appointment form's fields, in its order and with its labels. */
const APPOINTMENT_FIELDS: readonly TypedField<keyof AppointmentFields>[] = [
  { field: 'appointment_title', label: 'Title', kind: 'text' },
  { field: 'appointment_date', label: 'Date and time', kind: 'date-time' },
  { field: 'doctor_id', label: 'Doctor', kind: 'doctor' },
  { field: 'status', label: 'Status', kind: 'choice' },
  { field: 'location', label: 'Location', kind: 'text' },
  { field: 'notes', label: 'Notes', kind: 'text' },
  { field: 'attachment_key', label: 'Attachment', kind: 'file' },
];

/**
 * The fields a person fills in, per resource. Ids, the patient, versions and timestamps are left out:
 * nobody typed them.
 */
const TYPED_FIELDS: Record<SyncedResource, readonly TypedField<string>[]> = {
  appointments: APPOINTMENT_FIELDS,
  doctors: [], // a doctor is added from the directory, not typed: the change's label names them
  pharmacies: [{ field: 'preferred', label: 'Preferred', kind: 'choice' }],
  prescriptions: [
    { field: 'medicine_name', label: 'Medicine', kind: 'text' },
    { field: 'strength', label: 'Strength', kind: 'text' },
    { field: 'directions', label: 'Directions', kind: 'text' },
    { field: 'start_date', label: 'Start date', kind: 'text' },
    { field: 'end_date', label: 'End date', kind: 'text' },
    { field: 'times', label: 'Dose times', kind: 'text' },
    { field: 'status', label: 'Status', kind: 'choice' },
    { field: 'notes', label: 'Notes', kind: 'text' },
    { field: 'attachment_key', label: 'Label photo', kind: 'file' },
  ],
  dose_marks: [
    { field: 'date', label: 'Day', kind: 'text' },
    { field: 'time', label: 'Time', kind: 'text' },
    { field: 'is_taken', label: 'Taken', kind: 'choice' },
  ],
  lab_reports: [
    { field: 'report_type', label: 'Report Type', kind: 'text' },
    { field: 'report_date', label: 'Report Date', kind: 'text' },
    { field: 'attachment_key', label: 'Report file', kind: 'file' },
  ],
  check_ins: [], // a step is named by its label: the question and the answer given
  medical_history: [],
};

export type TypedValue = { label: string; value: string };

/** "New appointment “Checkup”", "Change to the appointment “Checkup”", "Deletion of an appointment". */
export function describeChange(entry: OutboxEntry): string {
  const noun = RESOURCE_NOUN[entry.resource];
  const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
  const named = entry.label ? `the ${noun} “${entry.label}”` : `${article} ${noun}`;
  if (entry.op === 'create') return entry.label ? `New ${noun} “${entry.label}”` : `New ${noun}`;
  return entry.op === 'update' ? `Change to ${named}` : `Deletion of ${named}`;
}

/**
 * The values the person entered in a refused change, readable: dates as the app shows them, a doctor by
 * name, a file by its name. An edit lists only the fields it changed; an emptied field says so.
 */
export async function typedValuesOf(db: KincareDb, entry: OutboxEntry): Promise<TypedValue[]> {
  const values: TypedValue[] = [];
  for (const { field, label, kind } of TYPED_FIELDS[entry.resource]) {
    if (!(field in entry.payload)) continue;
    const raw = entry.payload[field];
    const empty = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
    if (empty) {
      if (entry.op === 'update') values.push({ label, value: '(left empty)' });
      continue;
    }
    values.push({ label, value: await readable(db, kind, raw) });
  }
  return values;
}

async function readable(db: KincareDb, kind: FieldKind, raw: unknown): Promise<string> {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (kind === 'date-time') return formatDateTime(text) || text;
  if (kind === 'choice') return text.charAt(0).toUpperCase() + text.slice(1);
  if (kind === 'doctor')
    return (
      (await db.doctors.filter((doctor) => doctor.doctor_id === text).first())?.name ??
      'a doctor no longer in your list'
    );
  if (kind === 'file') {
    if (!text.startsWith(BLOB_REFERENCE_PREFIX)) return 'a stored file';
    const blob = await db.blobs.get(text.slice(BLOB_REFERENCE_PREFIX.length));
    return blob?.name ?? 'a file chosen on this device';
  }
  return text;
}
