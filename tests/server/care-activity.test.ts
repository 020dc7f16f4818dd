import { randomUUID } from 'node:crypto';
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

  it("records each delivery of the patient's records to a caregiver's device, with the count", async () => {
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
    const entries = await activity();
    expect(
      entries.map(({ kind, count, actor_name, resource }) => ({ kind, count, actor_name, resource })),
    ).toEqual([
      { kind: 'delivery', count: 1, actor_name: 'Alex', resource: 'appointments' },
      { kind: 'delivery', count: 2, actor_name: 'Alex', resource: 'appointments' },
    ]);
    expect(sentenceOf(entries[1])).toBe("Alex's device received 2 appointments");
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
