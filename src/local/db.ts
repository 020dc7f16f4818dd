import Dexie, { type DexieOptions, type EntityTable, type Table } from 'dexie';
import type { Profile } from '../domain/auth';
import type { MyDoctor } from '../domain/doctors';
import type {
  ActivityEntry,
  ApprovedRequest,
  PermissionRequestEntry,
  ReceivedRequest,
  SentRequest,
} from '../domain/caregivers';
import type { Plan, Subscription } from '../domain/billing';
import type { Refusal } from '../domain/refusals';
import type { SavedShareLink } from '../domain/share-links';
import { RESOURCES, type RecordOf, type SyncedResource } from '../domain/resources/list';
import type { UploadType } from '../domain/uploads';
import { deviceWorkTables, keepDeviceWorkOfQueued } from './db-device-work';

// The device's replica of one signed-in user's data, in IndexedDB via Dexie. One database per user
// (`kincare-<userId>`), opened at sign-in and deleted at logout, so two people sharing a phone never
// see each other's records and nothing of a user stays on the device after they sign out.
//
// Synced resources have a view table each (what screens read: the server's copy with this device's
// pending edits on top). `serverRows` keeps the server's copy only of records that have queued edits,
// so a pull or an answer can rebase those edits; `outbox` holds the queued mutations in order; `blobs`
// holds files chosen offline until the server has them; `syncState` the pull cursor and sync times.

export const DB_PREFIX = 'kincare-';

/** A patient the signed-in caregiver looks after, with the permissions granted. */
export type AssociatedPatient = {
  patient_id: string;
  user_id: string;
  name: string;
  email: string;
  permissions: string[];
  permission_id: string;
};

/** A doctor in the patient's network (filled by the doctors feature; read by pickers). */
/** An entry of the patient's doctors (synced resource `doctors`): the directory's profile as added. */
export type LocalDoctor = MyDoctor;

export type SyncedRow = { id: string; version: number } & Record<string, unknown>;

export type OutboxOp = 'create' | 'update' | 'delete';
export type OutboxEntry = {
  seq?: number;
  resource: SyncedResource;
  entityId: string;
  op: OutboxOp;
  /** create: the full record; update: only the changed fields; delete: empty. */
  payload: Record<string, unknown>;
  changedAt: number;
  idempotencyKey: string;
  /**
   * The server version this edit was made on, so the server merges only with changes this device had not
   * seen. Unset while an earlier queued change of the same record is unsent: the edit builds on that one,
   * and takes the version the server gives it when it is acknowledged. Fixed before the first send, so
   * every retry is the same request.
   */
  baseVersion?: number;
  status: 'pending' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  error?: string;
  /**
   * Why the server refused the change (status and code), kept with it: a refusal that can be lifted (a
   * permission given since) lets the person send the change again (retryRefused in outbox.ts).
   */
  refusal?: Refusal;
  /** What the person would call the record (e.g. its title when queued), to name it if the change fails. */
  label?: string;
  /** Files (ids in `blobs`) to upload before this mutation is sent. */
  blobIds?: string[];
  /**
   * The server would not take this change's file yet (429: the person's upload quota, which time lifts,
   * not retries). While it waits, the changes after it that do not build on it are sent (sync-push.ts).
   */
  heldForUpload?: boolean;
};

export type ServerRow = {
  key: string;
  resource: SyncedResource;
  id: string;
  version: number;
  data: SyncedRow | null;
};
export type StoredBlob = {
  id: string;
  blob: Blob;
  name: string;
  type: string;
  uploadType: UploadType;
  /** The patient the file is for: it is filed in their folder on the server (absent on older blobs). */
  patientId?: string;
  uploadedKey?: string;
};
export type SyncStateEntry = { key: string; value: number | string };

/**
 * What the server last answered about plans and the person's subscription (local/billing.ts), so the
 * Subscription screen shows it offline. Not synced: written after each successful fetch or change.
 */
export type BillingCacheRow =
  | { key: 'plans'; plans: Plan[]; saved_at: string }
  | { key: 'subscription'; subscription: Subscription | null; saved_at: string };

/**
 * A table per synced resource, from its declaration (src/domain/resources): keyed by id, with the indexes it
 * declares. Dexie 4 upgrades a replica whose tables differ from these without a new version number, so a
 * new resource's table is added to every device's replica, with every row of the others kept.
 */
const SYNCED_TABLES = Object.fromEntries(
  RESOURCES.map((resource) => [resource.key, ['id', ...resource.deviceIndexes].join(', ')]),
);

/** The synced resources' tables, typed with their records (Dexie makes them from the schema). */
type SyncedTables = { [Key in SyncedResource]: Table<RecordOf<Key>, string> };

// The class gets the synced tables' types by declaration merging: the tables come from the list, not from
// a property written here for each resource.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface KincareDb extends SyncedTables {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class KincareDb extends Dexie {
  profile!: EntityTable<Profile, 'id'>;
  associatedPatients!: EntityTable<AssociatedPatient, 'patient_id'>;
  /** The care requests and links, as the server last listed them (see care-sync.ts). */
  careSent!: EntityTable<SentRequest, 'request_id'>;
  careReceived!: EntityTable<ReceivedRequest, 'request_id'>;
  careApproved!: EntityTable<ApprovedRequest, 'permission_id'>;
  permissionRequests!: EntityTable<PermissionRequestEntry, 'id'>;
  careActivity!: EntityTable<ActivityEntry, 'id'>;
  /** Plans and the subscription as last fetched (billing.ts). */
  billing!: Table<BillingCacheRow, string>;
  /** The patient's share links as last fetched, each with its whole link when this device made it (share-links.ts). */
  shareLinks!: EntityTable<SavedShareLink, 'id'>;
  serverRows!: EntityTable<ServerRow, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  blobs!: EntityTable<StoredBlob, 'id'>;
  syncState!: EntityTable<SyncStateEntry, 'key'>;

  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    // The whole schema, declared once at its current version. Dexie (since 3) needs an earlier version only
    // for an upgrade function, and none has one: opening a replica of any earlier version, Dexie compares
    // the tables and indexes on the device with these and adds or drops what differs, keeping every row
    // (tests/unit/local/replica-upgrade.test.ts). Declared version by version, Dexie parsed the schemas of
    // all earlier versions again for each one, a few milliseconds of every signed-in first screen.
    // Version 8 dropped the appointments' appointment_date index: never queried by (screens sort a
    // patient's appointments in memory), and every index is one more write per row; a first pull of
    // 50,000 rows is about a tenth faster without it (tests/bench/pull-chromium.ts).
    this.version(8).stores({
      profile: 'id',
      associatedPatients: 'patient_id',
      ...SYNCED_TABLES,
      ...deviceWorkTables(),
      careSent: 'request_id',
      careReceived: 'request_id',
      careApproved: 'permission_id',
      permissionRequests: 'id',
      careActivity: 'id, at',
      billing: 'key',
      shareLinks: 'id',
      serverRows: 'key',
      outbox: '++seq, status, [resource+entityId]',
      blobs: 'id',
      syncState: 'key',
    });
    // Another tab or the service worker is deleting this replica (logout): stay closed. Dexie's own
    // handler would reopen on the next query and recreate the user's data after they signed out.
    this.on('versionchange', (event: IDBVersionChangeEvent) => {
      if (!event.newVersion) this.close({ disableAutoOpen: true });
    });
  }

  /** The view table of a synced resource. */
  viewOf(resource: SyncedResource): Table<SyncedRow, string> {
    return this.table(resource);
  }
}

let current: KincareDb | null = null;

/** Opens (or returns the open) replica of this user. */
export async function openUserDb(userId: string): Promise<KincareDb> {
  if (current && current.name === `${DB_PREFIX}${userId}`) return current;
  current?.close();
  current = new KincareDb(`${DB_PREFIX}${userId}`);
  await current.open();
  return current;
}

/** The open replica; throws when nobody is signed in (a screen must never read another user's data). */
export function userDb(): KincareDb {
  if (!current) throw new Error('No local database is open: nobody is signed in.');
  return current;
}

export function hasUserDb(): boolean {
  return current !== null;
}

/** Closes the replica without deleting it (another tab signed out; this one follows). */
export function closeUserDb(): void {
  current?.close({ disableAutoOpen: true });
  current = null;
}

/** The replicas on this device of anyone but this user (left by a session that ended with a 401, not a logout). */
async function otherUsersReplicaNames(userId: string): Promise<string[]> {
  const keep = new Set([`${DB_PREFIX}${userId}`, `${DB_PREFIX}session`]);
  const names = await Dexie.getDatabaseNames().catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(DB_PREFIX) && !keep.has(name));
}

/** Deletes the replicas of anyone but this user. */
export async function deleteOtherUsersDbs(userId: string): Promise<void> {
  await Promise.all((await otherUsersReplicaNames(userId)).map((name) => Dexie.delete(name)));
}

/**
 * How many changes the earlier users of this device queued and the server never took, counted without
 * opening their replicas as the current database and without reading anything else of theirs: the
 * person signing in is told only this number before those replicas are deleted.
 */
export async function unsentChangesOfOtherUsers(userId: string): Promise<number> {
  const counts = await Promise.all((await otherUsersReplicaNames(userId)).map(outboxSizeOf));
  return counts.reduce((total, count) => total + count, 0);
}

/** How many changes this person queued that wait on the device for their next sign-in (their session ended). */
export function unsentChangesKeptFor(userId: string): Promise<number> {
  return outboxSizeOf(`${DB_PREFIX}${userId}`);
}

/** Every entry in an outbox is a change the server has not taken yet: pending, or refused and not discarded. */
export async function unsentChangeCount(db: KincareDb): Promise<number> {
  return db.outbox.count();
}

async function outboxSizeOf(name: string): Promise<number> {
  // Dexie's dynamic mode (no schema declared): it opens the database as it is, so a replica that is not
  // ours is only read, never upgraded or created.
  const db = new Dexie(name);
  try {
    await db.open();
    return db.tables.some((table) => table.name === 'outbox') ? await db.table('outbox').count() : 0;
  } catch {
    return 0; // gone meanwhile (deleted by another tab), or unreadable: nothing there can be sent either
  } finally {
    db.close();
  }
}

/** Deletes this user's replica and the session copy (logout), and any replica left from an earlier crash. */
export async function deleteUserDbs(): Promise<void> {
  const open = current;
  current = null;
  if (open) {
    open.close();
    await Dexie.delete(open.name);
  }
  const names = await Dexie.getDatabaseNames().catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(DB_PREFIX)).map((name) => Dexie.delete(name)));
}

/**
 * What a session that ended (a 401) leaves of a person on this device: only what they queued and the
 * server never took (the outbox, the files those changes need, and for each queued record its id and the
 * version it was edited on, without the record's fields), so that it goes out when they sign in again,
 * and what the resources' device work keeps for those records (db-device-work.ts). Everything else of theirs (every synced table, their profile,
 * caregiver links, cursor, files) is deleted; with nothing queued the whole replica goes. Answers how many
 * unsent changes were kept.
 */
export async function forgetUserData(userId: string): Promise<number> {
  const name = `${DB_PREFIX}${userId}`;
  if (current?.name === name) {
    current.close({ disableAutoOpen: true });
    current = null;
  }
  const names = await Dexie.getDatabaseNames().catch(() => [name]);
  if (!names.includes(name)) return 0;
  const db = new KincareDb(name);
  let kept = 0;
  try {
    await db.open();
    kept = await db.transaction('rw', db.tables, async () => {
      const unsent = await db.outbox.toArray();
      if (unsent.length === 0) return 0;
      const needed = new Set(unsent.flatMap((entry) => entry.blobIds ?? []));
      const queued = new Set(unsent.map((entry) => `${entry.resource}:${entry.entityId}`));
      const kept = new Set<string>([
        db.outbox.name,
        db.blobs.name,
        db.serverRows.name,
        ...Object.keys(deviceWorkTables()),
      ]);
      await Promise.all(db.tables.filter((table) => !kept.has(table.name)).map((table) => table.clear()));
      await keepDeviceWorkOfQueued(db, queued);
      const blobIds = (await db.blobs.toCollection().primaryKeys()).filter((id) => !needed.has(id));
      await db.blobs.bulkDelete(blobIds);
      // The base version of each queued edit stays (the server merges against it); the record itself goes.
      const shadows = (await db.serverRows.toArray())
        .filter((shadow) => queued.has(`${shadow.resource}:${shadow.id}`))
        .map((shadow): ServerRow => ({ ...shadow, data: null }));
      await db.serverRows.clear();
      await db.serverRows.bulkPut(shadows);
      return unsent.length;
    });
  } finally {
    db.close();
  }
  if (kept === 0) await Dexie.delete(name);
  return kept;
}

/** The service worker's caches of personal data (all but the app shell's precache, which holds none). */
export async function deleteDataCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)),
  );
}
