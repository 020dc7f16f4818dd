import { useLiveQuery } from 'dexie-react-hooks';
import type { Vital } from '../../../domain/vitals';
import { hasUserDb, userDb } from '../../../local/db';
import { newestFirst } from './vital-format';

// What the Vitals screens read: live queries over this device's tables, never the network, so a reading
// saved offline shows at once and one pulled from another device appears as the sync lands it.

// Every kind of a patient: the table's one index is [patient_id+kind], and kinds are plain words.
const LOWEST_KIND = '';
const HIGHEST_KIND = '\uffff';

/** The patient's readings, newest first; undefined while the first read runs (no flash of "none yet"). */
export function useVitalReadings(patientId: string | null): Vital[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    const rows = await userDb()
      .vitals.where('[patient_id+kind]')
      .between([patientId, LOWEST_KIND], [patientId, HIGHEST_KIND], true, true)
      .toArray();
    return newestFirst(rows);
  }, [patientId]);
}

/** Whether a reading's change waits in the outbox ('waiting') or was refused by the server ('refused'). */
export type SendState = 'waiting' | 'refused';

/** The readings with a change not yet on the server, by id. */
export function useUnsentVitals(): ReadonlyMap<string, SendState> {
  return (
    useLiveQuery(async () => {
      if (!hasUserDb()) return NOTHING_UNSENT;
      const entries = await userDb()
        .outbox.where('[resource+entityId]')
        .between(['vitals', LOWEST_KIND], ['vitals', HIGHEST_KIND], true, true)
        .toArray();
      const states = new Map<string, SendState>();
      for (const entry of entries)
        if (states.get(entry.entityId) !== 'refused')
          states.set(entry.entityId, entry.status === 'failed' ? 'refused' : 'waiting');
      return states;
    }, []) ?? NOTHING_UNSENT
  );
}

const NOTHING_UNSENT: ReadonlyMap<string, SendState> = new Map();

/**
 * Who entered a reading, in words, from its caregiver_id: 'you' for this caregiver's own, the caregiver's
 * name for the patient (from their list of caregivers on this device), else 'a caregiver'. Null for the
 * patient's own readings.
 */
export function useEnteredBy(
  ownCaregiverId: string | null,
): (caregiverId: string | null | undefined) => string | null {
  const names = useLiveQuery(
    async () =>
      hasUserDb()
        ? new Map((await userDb().careApproved.toArray()).map((link) => [link.caregiver_id, link.name]))
        : new Map<string, string>(),
    [],
  );
  return (caregiverId) => {
    if (!caregiverId) return null;
    if (caregiverId === ownCaregiverId) return 'you';
    return names?.get(caregiverId) ?? 'a caregiver';
  };
}
