import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CARE_MESSAGES } from '../../src/domain/caregivers';
import { careLinks } from '../../src/server/db/schema';
import { lastMailTo, mailText, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// Permission requests (src/server/services/README.md): a linked caregiver asks for more, the patient accepts
// (the permissions join the link, and the caregiver can now do it) or declines (they still cannot).

let ctx: TestContext;
let patient: Person;
let caregiver: Person;
let linkId: string;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  caregiver = await makePerson(ctx, 'Caregiver', 'Alex Carer');
  linkId = await link(ctx, patient, caregiver, ['ReadAppointment']);
});

const ask = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/request/permission-requests', payload: body });
const list = (person: Person) => as(ctx, person, { method: 'GET', url: '/api/request/permission-requests' });
const accept = (person: Person, requestId: string) =>
  as(ctx, person, {
    method: 'PUT',
    url: '/api/request/permission-requests',
    payload: { request_id: requestId },
  });
const decline = (person: Person, requestId: string) =>
  as(ctx, person, {
    method: 'PUT',
    url: '/api/request/reject-permission',
    payload: { request_id: requestId },
  });
const book = (person: Person) =>
  as(ctx, person, {
    method: 'POST',
    url: '/api/appointments',
    payload: {
      id: randomUUID(),
      patient_id: patient.patientId,
      appointment_title: 'Dentist',
      appointment_date: '2026-12-02T10:00:00.000Z',
    },
  });

async function asked(permissions: string[] = ['AddAppointment']): Promise<string> {
  const answer = await ask(caregiver, { patient_id: patient.patientId, requested_permissions: permissions });
  expect(answer.statusCode).toBe(200);
  const [entry] = (await list(patient)).json().data;
  return entry.id;
}

describe('permission requests', () => {
  it('request -> accept -> the caregiver can now add an appointment', async () => {
    expect((await book(caregiver)).statusCode).toBe(403);
    const sent = await ask(caregiver, {
      caregiver_id: caregiver.caregiverId,
      patient_id: patient.patientId,
      permission_id: linkId,
      requested_permissions: ['ReadAppointment', 'AddAppointment'],
    });
    expect(sent.json()).toEqual({ success: true, message: 'Request sent successfully' });
    const entry = {
      id: expect.any(String),
      requested_at: expect.any(String),
      permissions: ['AddAppointment'], // only what the link does not already grant
      status: 'pending',
      patient_id: patient.patientId,
      caregiver_id: caregiver.caregiverId,
    };
    const forPatient = (await list(patient)).json();
    expect(forPatient).toEqual({ success: true, data: [{ ...entry, name: 'Alex Carer' }] });
    expect((await list(caregiver)).json()).toEqual({
      success: true,
      data: [{ ...entry, name: 'Pat Patient' }],
    });

    const accepted = await accept(patient, forPatient.data[0].id);
    expect(accepted.json()).toEqual({ success: true, message: CARE_MESSAGES.permissionRequestApproved });
    const [row] = await ctx.database.db.select().from(careLinks);
    expect(row?.permissions).toEqual(['ReadAppointment', 'AddAppointment']);
    expect((await list(caregiver)).json().data[0].status).toBe('approved');
    expect((await book(caregiver)).statusCode).toBe(201);
  });

  it('tells the patient by e-mail who asks for what, with where to answer', async () => {
    await asked(['AddAppointment', 'ReadLabReport']);
    const mail = lastMailTo(ctx, patient.email);
    expect(mail, 'a mail to the patient').toBeDefined();
    const text = mailText(mail ?? '');
    expect(text).toContain('Alex Carer asks for more access to your Kincare records');
    expect(text).toContain('- Add Appointment');
    expect(text).toContain('- Read Lab Report');
    expect(text).toContain(`${ctx.config.publicUrl}/permission-request`);
    // The caregiver is not sent a copy.
    expect(lastMailTo(ctx, caregiver.email)).toBeUndefined();
  });

  it('request -> decline -> the caregiver still cannot', async () => {
    const requestId = await asked();
    const declined = await decline(patient, requestId);
    expect(declined.json()).toEqual({ success: true, message: CARE_MESSAGES.permissionRequestRejected });
    expect((await list(patient)).json().data[0].status).toBe('rejected');
    expect((await book(caregiver)).statusCode).toBe(403);
    for (const answer of [await accept(patient, requestId), await decline(patient, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([409, CARE_MESSAGES.requestNotWaiting]);
    }
    // Answered, so the caregiver may ask again.
    expect(
      (await ask(caregiver, { patient_id: patient.patientId, requested_permissions: ['AddAppointment'] }))
        .statusCode,
    ).toBe(200);
  });

  it('asks only for what is new, one request at a time', async () => {
    const nothing = await ask(caregiver, {
      patient_id: patient.patientId,
      requested_permissions: ['ReadAppointment'],
    });
    expect([nothing.statusCode, nothing.json().message]).toEqual([400, CARE_MESSAGES.nothingNew]);
    await asked();
    const again = await ask(caregiver, {
      patient_id: patient.patientId,
      requested_permissions: ['ReadDoctor'],
    });
    expect([again.statusCode, again.json().message]).toEqual([409, CARE_MESSAGES.permissionRequestWaiting]);
  });

  it('refuses bad input, the wrong people and no token', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ requested_permissions: ['AddAppointment'] }, CARE_MESSAGES.selectPatient],
      [{ patient_id: patient.patientId, requested_permissions: [] }, CARE_MESSAGES.permissionsRequired],
      [
        { patient_id: patient.patientId, requested_permissions: ['Everything'] },
        CARE_MESSAGES.permissionsInvalid,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await ask(caregiver, body);
      expect([answer.statusCode, answer.json().message]).toEqual([400, message]);
    }
    const body = { patient_id: patient.patientId, requested_permissions: ['AddAppointment'] };
    const unlinked = await makePerson(ctx, 'Caregiver', 'Unlinked');
    expect((await ask(unlinked, body)).statusCode).toBe(403);
    expect((await ask(caregiver, { ...body, caregiver_id: unlinked.caregiverId })).statusCode).toBe(403);
    expect((await ask(caregiver, { ...body, permission_id: randomUUID() })).statusCode).toBe(404);
    const byPatient = await ask(patient, body);
    expect([byPatient.statusCode, byPatient.json().message]).toEqual([403, CARE_MESSAGES.caregiverOnly]);
    const noToken = await ctx.app.inject({
      method: 'POST',
      url: '/api/request/permission-requests',
      payload: body,
    });
    expect(noToken.statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/request/permission-requests' })).statusCode,
    ).toBe(401);

    const requestId = await asked();
    const other = await makePerson(ctx, 'Patient', 'Other');
    for (const answer of [await accept(other, requestId), await decline(other, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([404, CARE_MESSAGES.requestNotFound]);
    }
    expect((await list(other)).json().data).toEqual([]);
    expect((await list(unlinked)).json().data).toEqual([]);
    for (const answer of [await accept(caregiver, requestId), await decline(caregiver, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([403, CARE_MESSAGES.patientOnly]);
    }
    expect((await accept(patient, 'nope')).statusCode).toBe(400);
    expect((await accept(patient, randomUUID())).statusCode).toBe(404);
    const admin = await makePerson(ctx, 'Admin');
    expect((await list(admin)).statusCode).toBe(403);
    expect((await book(caregiver)).statusCode).toBe(403);
  });
});
