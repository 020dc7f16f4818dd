import {
  activityListSchema,
  approvedListSchema,
  associatePatientsResponseSchema,
  permissionRequestListSchema,
  receivedListSchema,
  sentListSchema,
} from '../domain/caregivers';
import type { KincareDb } from './db';
import { TransportError, type Transport } from './sync-transport';

// The care requests, links, permission requests and (for a patient) the caregivers' activity, copied from
// the server into the replica on every sync cycle, so the caregiver's patient picker, menu and permission
// checks, and the patient's caregiver pages, read the device's tables and still show offline. These are
// not records anyone edits offline (an invitation or an answer needs the other person's server state),
// so they are replaced as listed, not merged; changing them goes straight to the server (care-requests.ts).

export type CareRefresh = 'ok' | 'offline' | 'signed-out' | 'server';

const ACTIVITY_SHOWN = 50;

async function fetchList<T>(transport: Transport, url: string, parse: (data: unknown) => T): Promise<T> {
  const response = await transport({ method: 'GET', url });
  if (response.status === 401) throw new SignedOut();
  if (response.status !== 200) throw new ServerFailed(`The server answered ${response.status}.`);
  return parse(response.data);
}

class SignedOut extends Error {}
class ServerFailed extends Error {}

/**
 * Replaces the replica's copy of the signed-in person's care data with the server's. Does nothing for a
 * replica without a profile (not signed in through the app, e.g. the sync engine's own tests).
 */
export async function refreshCare(db: KincareDb, transport: Transport): Promise<CareRefresh> {
  const profile = await db.profile.toCollection().first();
  if (!profile) return 'ok';
  try {
    if (profile.role === 'Caregiver') {
      const [patients, received, approved, requests] = await Promise.all([
        fetchList(transport, '/request/associate-patients', (data) =>
          associatePatientsResponseSchema.parse(data),
        ),
        fetchList(transport, '/request/received', (data) => receivedListSchema.parse(data)),
        fetchList(transport, '/request/approved', (data) => approvedListSchema.parse(data)),
        fetchList(transport, '/request/permission-requests', (data) =>
          permissionRequestListSchema.parse(data),
        ),
      ]);
      await db.transaction(
        'rw',
        [db.associatedPatients, db.careReceived, db.careApproved, db.permissionRequests],
        async () => {
          await replace(db.associatedPatients, patients.assigned_patients);
          await replace(db.careReceived, received.data);
          await replace(db.careApproved, approved.data);
          await replace(db.permissionRequests, requests.data);
        },
      );
    } else if (profile.role === 'Patient') {
      const [sent, approved, requests, activity] = await Promise.all([
        fetchList(transport, '/request/sent', (data) => sentListSchema.parse(data)),
        fetchList(transport, '/request/approved', (data) => approvedListSchema.parse(data)),
        fetchList(transport, '/request/permission-requests', (data) =>
          permissionRequestListSchema.parse(data),
        ),
        fetchList(transport, `/request/activity?limit=${ACTIVITY_SHOWN}`, (data) =>
          activityListSchema.parse(data),
        ),
      ]);
      await db.transaction(
        'rw',
        [db.careSent, db.careApproved, db.permissionRequests, db.careActivity],
        async () => {
          await replace(db.careSent, sent.data);
          await replace(db.careApproved, approved.data);
          await replace(db.permissionRequests, requests.data);
          await replace(db.careActivity, activity.data);
        },
      );
    }
    return 'ok';
  } catch (error) {
    if (error instanceof SignedOut) return 'signed-out';
    if (error instanceof TransportError) return 'offline';
    // A failed answer or one of an unexpected shape: keep what the device had; the next cycle tries again.
    return 'server';
  }
}

type Replaceable<T> = { clear: () => Promise<void>; bulkPut: (rows: readonly T[]) => Promise<unknown> };

async function replace<T>(table: Replaceable<T>, rows: readonly T[]): Promise<void> {
  await table.clear();
  if (rows.length > 0) await table.bulkPut(rows);
}
