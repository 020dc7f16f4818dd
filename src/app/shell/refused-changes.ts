import { formatDateTime } from '../../domain/date-display';
import { BLOB_REFERENCE_PREFIX } from '../../domain/blob-reference';
import type { ResourceDeclaration } from '../../domain/resources/declare';
import { RESOURCES } from '../../domain/resources/list';
import type { KincareDb, OutboxEntry } from '../../local/db';

// What the person is told about a change the server refused: which record, and what they had typed, so
// that they can enter it again after the change is discarded (a refused change is rolled back on screen).

type TypedField = ResourceDeclaration['typedFields'][number];
type FieldKind = TypedField['kind'];

/** Each resource's noun and the fields a person fills in, from its declaration (src/domain/resources). */
const RESOURCE_NOUN = new Map<string, string>(
  RESOURCES.map((resource) => [resource.key, resource.nouns.singular]),
);
const TYPED_FIELDS = new Map<string, readonly TypedField[]>(
  RESOURCES.map((resource) => [resource.key, resource.typedFields]),
);

export type TypedValue = { label: string; value: string };

/** "New appointment “Checkup”", "Change to the appointment “Checkup”", "Deletion of an appointment". */
export function describeChange(entry: OutboxEntry): string {
  const noun = RESOURCE_NOUN.get(entry.resource) ?? 'record';
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
  for (const { field, label, kind } of TYPED_FIELDS.get(entry.resource) ?? []) {
    if (!(field in entry.payload)) continue;
    const raw = entry.payload[field];
    const empty = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
    if (empty) {
      if (entry.op === 'update') values.push({ label, value: '(left empty)' });
      continue;
    }
    // A time of a record with a zone of its own (an appointment) reads on that zone's clock.
    const zone = typeof entry.payload.time_zone === 'string' ? entry.payload.time_zone : null;
    values.push({ label, value: await readable(db, kind, raw, zone) });
  }
  return values;
}

async function readable(db: KincareDb, kind: FieldKind, raw: unknown, zone: string | null): Promise<string> {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (kind === 'date-time') return formatDateTime(text, { zone }) || text;
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
