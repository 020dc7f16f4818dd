import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { recordWithoutMoodScreening } from '../../domain/check-in';
import { records } from '../db/schema';
import type { AuthUser } from '../plugins/auth';
import type { ReadScope } from './access';
import type { PullView } from './sync-pull';
import type { Queryable } from './transaction';

// Who sees the mood screening (PHQ-2) of a patient's check-ins (services/README.md, "The check-in's mood
// screening"): the patient always; a caregiver who may read the check-ins only while the patient shares it,
// which the patient says on their medical history record (`share_mood_screening`, off until turned on).
// Every read of check-ins by someone else (the pull, init, summary) leaves the screening out for the
// patients named here.

/** The patients, of `patientIds`, whose medical history says the mood screening is shared. */
async function sharingPatients(db: Queryable, patientIds: readonly string[]): Promise<Set<string>> {
  if (patientIds.length === 0) return new Set();
  const rows = await db
    .select({ patientId: records.patientId })
    .from(records)
    .where(
      and(
        eq(records.resource, 'medical_history'),
        inArray(records.patientId, [...patientIds]),
        isNull(records.deletedAt),
        sql`${records.data}->'share_mood_screening' = 'true'::jsonb`,
      ),
    );
  return new Set(rows.map((row) => row.patientId));
}

/**
 * The patients, of those whose check-ins the caller may read, whose mood screening the caller may not see:
 * every one but the caller themself that does not share it.
 */
export async function moodScreeningWithheld(
  db: Queryable,
  auth: AuthUser,
  patientIds: readonly string[],
): Promise<Set<string>> {
  // Ids as the database gives them back (a query may name a patient in capitals).
  const own = auth.patientId?.toLowerCase();
  const others = [...new Set(patientIds.map((id) => id.toLowerCase()))].filter((id) => id !== own);
  const sharing = await sharingPatients(db, others);
  return new Set(others.filter((patientId) => !sharing.has(patientId)));
}

/** Whether the caller, who may read this patient's check-ins, sees their mood screening too. */
export async function seesMoodScreening(db: Queryable, auth: AuthUser, patientId: string): Promise<boolean> {
  return (await moodScreeningWithheld(db, auth, [patientId])).size === 0;
}

/**
 * What the caller's pull shows of the check-ins in `scope`: each without the mood screening for the
 * patients who withhold it from the caller. The key names those patients, so a change of their choice
 * makes the caller's device start over (sync-pull.ts, PullView).
 */
export async function moodScreeningView(db: Queryable, auth: AuthUser, scope: ReadScope): Promise<PullView> {
  const withheld = await moodScreeningWithheld(db, auth, scope.check_ins);
  if (withheld.size === 0) return { key: '', shown: (_row, record) => record };
  return {
    key: `mood-screening-withheld:${[...withheld].sort().join(',')}`,
    shown: (row, record) =>
      row.resource === 'check_ins' && withheld.has(row.patientId)
        ? recordWithoutMoodScreening(record)
        : record,
  };
}
