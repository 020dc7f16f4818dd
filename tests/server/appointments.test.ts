import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import { TEXT_MESSAGES } from '../../src/domain/text';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';
import { eq } from 'drizzle-orm';
import { careLinks } from '../../src/server/db/schema';

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

const newAppointment = (patientId: string | null, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  patient_id: patientId,
  appointment_title: 'Cardiology check-up',
  appointment_date: '2026-12-01T09:30:00.000Z',
  ...extra,
});

async function create(person: Person, body: Record<string, unknown>, key?: string) {
  return as(ctx, person, {
    method: 'POST',
    url: '/api/appointments',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

describe('appointments', () => {
  it('creates with a client-minted id, reads, lists from a start date, edits and deletes', async () => {
    const body = newAppointment(patient.patientId, {
      location: 'City Clinic',
      notes: 'Bring the blood test',
    });
    const created = await create(patient, body);
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      id: body.id,
      patient_id: patient.patientId,
      status: 'scheduled',
      doctor_id: null,
      location: 'City Clinic',
    });
    expect(data.version).toBeGreaterThan(0);

    const earlier = newAppointment(patient.patientId, { appointment_date: '2026-10-01T09:00:00.000Z' });
    await create(patient, earlier);
    const all = await as(ctx, patient, { method: 'GET', url: '/api/appointments' });
    expect(all.json().data.map((row: { id: string }) => row.id)).toEqual([earlier.id, body.id]);
    const fromNovember = await as(ctx, patient, {
      method: 'GET',
      url: '/api/appointments?startDate=2026-11-01',
    });
    expect(fromNovember.json().data.map((row: { id: string }) => row.id)).toEqual([body.id]);

    const edited = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${body.id}`,
      payload: { appointment_title: 'Cardiology follow-up', status: 'completed', base_version: data.version },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      merged: false,
      data: { appointment_title: 'Cardiology follow-up', status: 'completed', location: 'City Clinic' },
    });
    expect(edited.json().data.version).toBeGreaterThan(data.version);

    const deleted = await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${body.id}` });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true, data: { id: body.id, deleted: true } });
    expect((await as(ctx, patient, { method: 'GET', url: `/api/appointments/${body.id}` })).statusCode).toBe(
      404,
    );
  });

  it.each([
    ['appointment_title', '', APPOINTMENT_MESSAGES.titleRequired],
    ['appointment_title', 'x'.repeat(201), APPOINTMENT_MESSAGES.titleTooLong],
    ['appointment_date', '', APPOINTMENT_MESSAGES.dateRequired],
    ['appointment_date', 'next tuesday', APPOINTMENT_MESSAGES.dateInvalid],
    ['status', 'postponed', APPOINTMENT_MESSAGES.statusInvalid],
    ['id', 'temp-1', APPOINTMENT_MESSAGES.idInvalid],
    ['doctor_id', 'dr-who', APPOINTMENT_MESSAGES.doctorInvalid],
    ['notes', 'x'.repeat(2001), APPOINTMENT_MESSAGES.notesTooLong],
    ['location', 'x'.repeat(201), APPOINTMENT_MESSAGES.locationTooLong],
    ['time_zone', 'Mars/Olympus', APPOINTMENT_MESSAGES.timeZoneInvalid],
    ['time_zone', 'EST5EDT; DROP', APPOINTMENT_MESSAGES.timeZoneInvalid],
    ['time_zone', 'x'.repeat(65), APPOINTMENT_MESSAGES.timeZoneInvalid],
    ['time_zone', 42, APPOINTMENT_MESSAGES.timeZoneInvalid],
  ])('refuses a bad %s with a clear message', async (field, value, message) => {
    const response = await create(patient, { ...newAppointment(patient.patientId), [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(response.json().errors[0].path).toBe(field);
    expect((await as(ctx, patient, { method: 'GET', url: '/api/appointments' })).json().data).toEqual([]);
  });

  const BAD_TEXT: [string, string][] = [
    ['a NUL byte', 'Blood test\u0000'],
    ['an escape sequence', 'x\u001B[31m'],
    ['a lone surrogate', 'Blood \uD800 test'],
    ['a lone low surrogate', '\uDC00'],
  ];
  const messageFor = (value: string) =>
    value.includes('\uD800') || value.includes('\uDC00')
      ? TEXT_MESSAGES.brokenCharacters
      : TEXT_MESSAGES.controlCharacters;

  it.each(['appointment_title', 'location', 'notes'])(
    'refuses control and broken characters in %s with a 400 and a message, on create and edit',
    async (field) => {
      const existing = newAppointment(patient.patientId);
      const before = (await create(patient, existing)).json();
      for (const [, value] of BAD_TEXT) {
        const created = await create(patient, { ...newAppointment(patient.patientId), [field]: value });
        expect([created.statusCode, created.json().message, created.json().errors[0].path]).toEqual([
          400,
          messageFor(value),
          field,
        ]);
        const edited = await as(ctx, patient, {
          method: 'PUT',
          url: `/api/appointments/${existing.id}`,
          payload: { [field]: value },
          headers: { 'idempotency-key': `bad-text-${field}-${BAD_TEXT.findIndex(([, v]) => v === value)}` },
        });
        expect([edited.statusCode, edited.json().message]).toEqual([400, messageFor(value)]);
      }
      const after = await as(ctx, patient, { method: 'GET', url: '/api/appointments' });
      expect(after.json().data).toEqual([before.data]);
    },
  );

  it('refuses control and broken characters in the date with a 400', async () => {
    for (const [, value] of BAD_TEXT) {
      const response = await create(patient, {
        ...newAppointment(patient.patientId),
        appointment_date: `2026-12-01T09:30:00.000Z${value}`,
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await as(ctx, patient, { method: 'GET', url: '/api/appointments' })).json().data).toEqual([]);
  });

  it('keeps the zone of the place of the visit, and reads one stored without a zone as null', async () => {
    const inNewYork = newAppointment(patient.patientId, { time_zone: 'America/New_York' });
    const created = await create(patient, inNewYork);
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({
      time_zone: 'America/New_York',
      appointment_date: '2026-12-01T09:30:00.000Z',
    });
    const read = await as(ctx, patient, { method: 'GET', url: `/api/appointments/${inNewYork.id}` });
    expect(read.json().data.time_zone).toBe('America/New_York');

    // A visit moved to another place: the zone changes alone, the instant stays as sent.
    const moved = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${inNewYork.id}`,
      payload: { time_zone: 'Asia/Kolkata', base_version: created.json().data.version },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({
      time_zone: 'Asia/Kolkata',
      appointment_title: 'Cardiology check-up',
    });

    // A bad zone on an edit is refused with the sentence, and the stored zone stays.
    const refused = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${inNewYork.id}`,
      payload: { time_zone: 'Mars/Olympus' },
    });
    expect([refused.statusCode, refused.json().message, refused.json().errors[0].path]).toEqual([
      400,
      APPOINTMENT_MESSAGES.timeZoneInvalid,
      'time_zone',
    ]);
    const after = await as(ctx, patient, { method: 'GET', url: `/api/appointments/${inNewYork.id}` });
    expect(after.json().data.time_zone).toBe('Asia/Kolkata');

    // A client that sends no zone (the API's payload names none): stored without one, read as the patient's.
    const noZone = newAppointment(patient.patientId);
    expect((await create(patient, noZone)).json().data.time_zone).toBeNull();
  });

  it('takes and refuses the zone by push as by REST', async () => {
    const good = newAppointment(patient.patientId, { time_zone: 'Australia/Adelaide' });
    const bad = newAppointment(patient.patientId, { time_zone: 'Mars/Olympus' });
    const pushed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/sync/push',
      payload: {
        changes: [good, bad].map((body) => ({
          idempotency_key: randomUUID(),
          resource: 'appointments',
          op: 'create',
          id: body.id,
          payload: body,
        })),
      },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const [accepted, refused] = pushed.json().results;
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.time_zone).toBe('Australia/Adelaide');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(APPOINTMENT_MESSAGES.timeZoneInvalid);
    const listed = await as(ctx, patient, { method: 'GET', url: '/api/appointments' });
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([good.id]);
  });

  it('refuses a bad query and a bad id', async () => {
    expect(
      (await as(ctx, patient, { method: 'GET', url: '/api/appointments?startDate=2026-13-45' })).statusCode,
    ).toBe(400);
    expect(
      (await as(ctx, patient, { method: 'GET', url: '/api/appointments/not-a-uuid' })).json().message,
    ).toBe(APPOINTMENT_MESSAGES.idInvalid);
  });

  it('needs a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/appointments' })).statusCode).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/appointments',
          payload: newAppointment(patient.patientId),
        })
      ).statusCode,
    ).toBe(401);
  });

  it("hides another patient's appointment (404) and refuses writing for another patient (403)", async () => {
    const other = await makePerson(ctx, 'Patient');
    const body = newAppointment(other.patientId);
    expect((await create(other, body)).statusCode).toBe(201);
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await as(ctx, patient, { method, url: `/api/appointments/${body.id}` })).statusCode).toBe(404);
    }
    expect(
      (
        await as(ctx, patient, {
          method: 'PUT',
          url: `/api/appointments/${body.id}`,
          payload: { notes: 'mine now' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await create(patient, newAppointment(other.patientId))).statusCode).toBe(403);
    expect(
      (await as(ctx, patient, { method: 'GET', url: `/api/appointments?patient=${other.patientId}` }))
        .statusCode,
    ).toBe(403);
  });

  it('lets a caregiver do exactly what the patient granted', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    const body = newAppointment(patient.patientId);
    await create(patient, body);
    const list = () =>
      as(ctx, caregiver, { method: 'GET', url: `/api/appointments?patient=${patient.patientId}` });
    expect((await list()).statusCode).toBe(403);
    await link(ctx, patient, caregiver, ['ReadAppointment']);
    expect((await list()).json().data).toHaveLength(1);
    expect((await as(ctx, caregiver, { method: 'GET', url: '/api/appointments' })).json().message).toBe(
      'Please select patient.',
    );
    expect((await create(caregiver, newAppointment(patient.patientId))).statusCode).toBe(403);
    expect(
      (
        await as(ctx, caregiver, {
          method: 'PUT',
          url: `/api/appointments/${body.id}`,
          payload: { notes: 'x' },
        })
      ).statusCode,
    ).toBe(403); // they can see it, so they are told the true reason
    expect(
      (await as(ctx, caregiver, { method: 'DELETE', url: `/api/appointments/${body.id}` })).statusCode,
    ).toBe(403);
  });

  it('keeps a refusal under its Idempotency-Key, so a late copy is not applied once access is granted', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    await link(ctx, patient, caregiver, ['ReadAppointment']);
    const body = newAppointment(patient.patientId);
    const refused = await create(caregiver, body, 'key-refused-0001');
    expect(refused.statusCode).toBe(403);
    await ctx.database.db
      .update(careLinks)
      .set({ permissions: ['ReadAppointment', 'AddAppointment'] })
      .where(eq(careLinks.caregiverId, caregiver.caregiverId ?? ''));
    const late = await create(caregiver, body, 'key-refused-0001');
    expect([late.statusCode, late.json(), late.headers['idempotent-replayed']]).toEqual([
      403,
      refused.json(),
      'true',
    ]);
    expect((await as(ctx, patient, { method: 'GET', url: `/api/appointments/${body.id}` })).statusCode).toBe(
      404,
    );
    expect((await create(caregiver, body, 'key-refused-0002')).statusCode).toBe(201); // a new decision
  });

  it('records the caregiver who booked it', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment', 'EditAppointment']);
    const response = await create(caregiver, newAppointment(patient.patientId));
    expect(response.statusCode).toBe(201);
    expect(response.json().data.caregiver_id).toBe(caregiver.caregiverId);
  });

  it('applies a repeated Idempotency-Key once and replays the stored answer', async () => {
    const body = newAppointment(patient.patientId);
    const first = await create(patient, body, 'key-create-0001');
    const again = await create(patient, body, 'key-create-0001');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        as(ctx, patient, {
          method: 'PUT',
          url: `/api/appointments/${body.id}`,
          payload: { notes: 'once' },
          headers: { 'idempotency-key': 'key-edit-0001' },
        }),
      ),
    );
    expect(new Set(concurrent.map((response) => response.json().data.version)).size).toBe(1);
    const reused = await create(patient, newAppointment(patient.patientId), 'key-create-0001');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe('This Idempotency-Key was already used for a different request.');
    expect((await create(patient, body)).json().message).toBe(APPOINTMENT_MESSAGES.exists);
    expect((await create(patient, newAppointment(patient.patientId), 'bad key!')).statusCode).toBe(400);
  });

  it('replays to a caller who lost the permission it had then only a receipt, without the record', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver');
    await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const body = newAppointment(patient.patientId);
    const first = await create(caregiver, body, 'key-before-revoke');
    expect(first.statusCode).toBe(201);
    await ctx.database.db.delete(careLinks);
    const retry = await create(caregiver, body, 'key-before-revoke'); // the first answer was lost
    expect([retry.statusCode, retry.json()]).toEqual([
      201,
      {
        success: true,
        data: { id: first.json().data.id, version: first.json().data.version },
        merged: false,
      },
    ]);
    expect((await create(caregiver, newAppointment(patient.patientId), 'key-after-revoke')).statusCode).toBe(
      403,
    );
  });

  it('takes the caregiver who booked it from the token, not from the body', async () => {
    const response = await create(patient, newAppointment(patient.patientId, { caregiver_id: randomUUID() }));
    expect(response.json().data.caregiver_id).toBeNull();
  });

  it('merges edits made on an older version per field, last writer wins, and says so', async () => {
    const t0 = Date.now() - 60_000;
    const body = newAppointment(patient.patientId, { changed_at: t0 });
    const base = (await create(patient, body)).json().data.version;
    const url = `/api/appointments/${body.id}`;
    const phone = await as(ctx, patient, {
      method: 'PUT',
      url,
      payload: { location: 'Room 4', notes: 'phone notes', base_version: base, changed_at: t0 + 2000 },
    });
    expect(phone.json().merged).toBe(false);
    // The laptop edited the same version earlier (offline): its title change stays, its older notes lose.
    const laptop = await as(ctx, patient, {
      method: 'PUT',
      url,
      payload: {
        appointment_title: 'Laptop title',
        notes: 'laptop notes',
        base_version: base,
        changed_at: t0 + 1000,
      },
    });
    expect(laptop.json().merged).toBe(true);
    expect(laptop.json().data).toMatchObject({
      appointment_title: 'Laptop title',
      location: 'Room 4',
      notes: 'phone notes',
    });
    // A later edit on a stale base wins its field.
    const later = await as(ctx, patient, {
      method: 'PUT',
      url,
      payload: { notes: 'latest notes', base_version: base, changed_at: t0 + 3000 },
    });
    expect(later.json()).toMatchObject({
      merged: true,
      data: { notes: 'latest notes', appointment_title: 'Laptop title' },
    });
  });

  it('lets a delete win over a later edit', async () => {
    const body = newAppointment(patient.patientId);
    const base = (await create(patient, body)).json().data.version;
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${body.id}` });
    const edit = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${body.id}`,
      payload: { notes: 'too late', base_version: base },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe(APPOINTMENT_MESSAGES.deletedElsewhere);
    expect(
      (await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${body.id}` })).statusCode,
    ).toBe(200);
  });
});
