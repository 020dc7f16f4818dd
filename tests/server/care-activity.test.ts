import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activitySentence, type ActivityEntry } from '../../src/domain/caregivers';
import type { PushChange } from '../../src/domain/sync';
import { careActivity } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// The patient's activity log (GET /api/request/activity): every caregiver write, by REST or by a pushed
// batch, once (a replay adds nothing, a refused write nothing), and every delivery of the patient's
// records to a caregiver's device; nothing of the patient's own doing.

let ctx: TestContext;
let patient: Person;
let caregiver: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  caregiver = await makePerson(ctx, 'Caregiver', 'Alex');
  await link(ctx, patient, caregiver, [
    'ReadAppointment',
    'AddAppointment',
    'EditAppointment',
    'DeleteAppointment',
  ]);
});

const visit = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  patient_id: patient.patientId,
  appointment_title: 'Cardiology check-up',
  appointment_date: '2026-12-01T09:30:00.000Z',
  ...extra,
});

async function activity(): Promise<ActivityEntry[]> {
  const answer = await as(ctx, patient, { method: 'GET', url: '/api/request/activity' });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ data: ActivityEntry[] }>().data;
}

function sentenceOf(entry: ActivityEntry | undefined): string {
  if (!entry) throw new Error('no such entry');
  return activitySentence(entry);
}

const create = (person: Person, body: Record<string, unknown>, key?: string) =>
  as(ctx, person, {
    method: 'POST',
    url: '/api/appointments',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
const push = (person: Person, changes: PushChange[]) =>
  as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });

describe('the activity log', () => {
  it("records a caregiver's REST writes once, newest first, and none of the patient's own", async () => {
    const own = visit();
    expect((await create(patient, own)).statusCode).toBe(201);
    expect(await activity()).toEqual([]);

    const body = visit();
    const created = await create(caregiver, body, 'activity-key-1');
    expect(created.statusCode).toBe(201);
    expect(created.json().data.caregiver_id).toBe(caregiver.caregiverId);
    const replayed = await create(caregiver, body, 'activity-key-1');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await as(ctx, caregiver, {
      method: 'PUT',
      url: `/api/appointments/${body.id}`,
      payload: { notes: 'Fasting' },
    });
    await as(ctx, caregiver, { method: 'DELETE', url: `/api/appointments/${own.id}` });

    const entries = await activity();
    expect(
      entries.map(({ kind, actor_name, resource, op, record_id }) => ({
        kind,
        actor_name,
        resource,
        op,
        record_id,
      })),
    ).toEqual([
      { kind: 'write', actor_name: 'Alex', resource: 'appointments', op: 'delete', record_id: own.id },
      { kind: 'write', actor_name: 'Alex', resource: 'appointments', op: 'update', record_id: body.id },
      { kind: 'write', actor_name: 'Alex', resource: 'appointments', op: 'create', record_id: body.id },
    ]);
    expect(sentenceOf(entries[2])).toBe('Alex added an appointment');
    expect(
      (await as(ctx, patient, { method: 'GET', url: '/api/request/activity?limit=1' })).json().data,
    ).toHaveLength(1);
  });

  it('records pushed writes, not their replays, and nothing for a refused write', async () => {
    const change: PushChange = {
      idempotency_key: 'push-activity-1',
      resource: 'appointments',
      op: 'create',
      id: randomUUID(),
      payload: visit(),
    };
    const pushed = await push(caregiver, [change]);
    expect(pushed.json().results[0]).toMatchObject({
      status: 201,
      body: { data: { caregiver_id: caregiver.caregiverId } },
    });
    await push(caregiver, [change]);
    const other = await makePerson(ctx, 'Patient', 'Other');
    const refused = await push(caregiver, [
      {
        ...change,
        idempotency_key: 'push-activity-2',
        id: randomUUID(),
        payload: visit({ patient_id: other.patientId }),
      },
    ]);
    expect(refused.json().results[0].status).toBe(403);
    const entries = await activity();
    expect(entries).toMatchObject([
      { kind: 'write', op: 'create', record_id: change.id, actor_name: 'Alex' },
    ]);
    expect(await ctx.database.db.select().from(careActivity)).toHaveLength(1);
  });

  it("counts the deliveries of the patient's records to a caregiver's device: one line per caregiver, kind of record and day", async () => {
    for (let index = 0; index < 3; index += 1) await create(patient, visit());
    expect((await as(ctx, patient, { method: 'GET', url: '/api/sync/pull' })).statusCode).toBe(200);
    expect(await activity()).toEqual([]);

    const first = await as(ctx, caregiver, { method: 'GET', url: '/api/sync/pull?limit=2' });
    expect(first.json().changes).toHaveLength(2);
    await as(ctx, caregiver, { method: 'GET', url: `/api/sync/pull?limit=2&token=${first.json().token}` });
    const quiet = await as(ctx, caregiver, {
      method: 'GET',
      url: `/api/sync/pull?cursor=${first.json().cursor + 10}`,
    });
    expect(quiet.json().changes).toEqual([]);
    // The two pages of the pull, and two lists by REST: 2 + 1 + 3 + 3 appointments.
    for (let index = 0; index < 2; index += 1) {
      const list = await as(ctx, caregiver, {
        method: 'GET',
        url: `/api/appointments?patient=${patient.patientId}`,
      });
      expect(list.json().data).toHaveLength(3);
    }
    const entries = await activity();
    const days = new Set(entries.map((entry) => entry.at.slice(0, 10)));
    expect(
      entries.map(({ kind, actor_name, resource }) => ({ kind, actor_name, resource })),
      'one line a day (two if the reads straddled midnight UTC)',
    ).toEqual([...days].map(() => ({ kind: 'delivery', actor_name: 'Alex', resource: 'appointments' })));
    expect(entries.reduce((sum, entry) => sum + entry.count, 0)).toBe(9);
    if (entries.length === 1) expect(sentenceOf(entries[0])).toBe("Alex's device received 9 appointments");
  });

  it("keeps a caregiver's changes in the patient's log however often the caregiver reads (210 lists)", async () => {
    const changed = visit();
    expect((await create(caregiver, changed)).statusCode).toBe(201);
    await as(ctx, caregiver, { method: 'DELETE', url: `/api/appointments/${changed.id}` });
    await create(patient, visit());
    for (let index = 0; index < 210; index += 1) {
      const list = await as(ctx, caregiver, {
        method: 'GET',
        url: `/api/appointments?patient=${patient.patientId}`,
      });
      expect(list.statusCode).toBe(200);
    }
    const writes = (entries: ActivityEntry[]) =>
      entries.filter((entry) => entry.kind === 'write').map(({ op, record_id }) => ({ op, record_id }));
    const changes = [
      { op: 'delete', record_id: changed.id },
      { op: 'create', record_id: changed.id },
    ];
    expect(writes(await activity())).toEqual(changes);
    // The screen asks for 50 lines; even one line of each kind keeps the newest change.
    const one = await as(ctx, patient, { method: 'GET', url: '/api/request/activity?limit=1' });
    expect(writes(one.json<{ data: ActivityEntry[] }>().data)).toEqual([changes[0]]);

    // The reads are counted, not listed one by one: a line per day (the 210 reads take seconds, so at
    // most two days), their counts adding up to every appointment delivered.
    const deliveries = await ctx.database.db
      .select()
      .from(careActivity)
      .where(eq(careActivity.kind, 'delivery'));
    expect(deliveries.length).toBeLessThanOrEqual(2);
    expect(deliveries.reduce((sum, row) => sum + row.count, 0)).toBe(210);
  });

  it('lists the newest changes even below many days of deliveries that came after them', async () => {
    const changed = visit();
    expect((await create(caregiver, changed)).statusCode).toBe(201);
    const day = 24 * 60 * 60 * 1000;
    const start = Date.now() - 400 * day;
    await ctx.database.db
      .update(careActivity)
      .set({ at: new Date(start) })
      .where(eq(careActivity.kind, 'write'));
    await ctx.database.db.insert(careActivity).values(
      Array.from({ length: 300 }, (_, index) => {
        const at = new Date(start + (index + 1) * day);
        return {
          patientId: patient.patientId ?? '',
          actorUserId: caregiver.userId,
          actorName: 'Alex',
          kind: 'delivery' as const,
          resource: 'appointments',
          count: 2,
          day: at.toISOString().slice(0, 10),
          at,
        };
      }),
    );
    const entries = await activity();
    expect(entries.filter((entry) => entry.kind === 'delivery')).toHaveLength(50);
    expect(entries.filter((entry) => entry.kind === 'write')).toMatchObject([
      { op: 'create', record_id: changed.id },
    ]);
    // Newest first, the change last: every delivery line is newer.
    expect(entries.at(-1)).toMatchObject({ kind: 'write' });
    expect(entries.map((entry) => entry.at)).toEqual(
      entries
        .map((entry) => entry.at)
        .sort()
        .reverse(),
    );
  });

  it('is for the patient only; bad input 400; no token 401', async () => {
    const byCaregiver = await as(ctx, caregiver, { method: 'GET', url: '/api/request/activity' });
    expect(byCaregiver.statusCode).toBe(403);
    const bad = await as(ctx, patient, { method: 'GET', url: '/api/request/activity?limit=0' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'limit must be at least 1.']);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/request/activity' })).statusCode).toBe(401);
    // Another patient sees none of this patient's log.
    await create(caregiver, visit());
    const other = await makePerson(ctx, 'Patient', 'Other');
    expect((await as(ctx, other, { method: 'GET', url: '/api/request/activity' })).json().data).toEqual([]);
  });
});
