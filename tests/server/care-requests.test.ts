import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BETA_POLICY_MESSAGES } from '../../src/domain/auth';
import { CARE_MESSAGES } from '../../src/domain/caregivers';
import { careLinks, careRequests, permissionRequests, users } from '../../src/server/db/schema';
import { INVITES_PER_HOUR } from '../../src/server/routes/requests';
import { lastMailTo, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';
import { givePlan } from '../fixtures/plans';

// The invitations of /api/request (src/server/services/README.md): send, the three lists, approve, reject,
// delete and update-permission, with every refusal: bad input 400, the wrong role 403, another person's
// request 404, an answered request 409, no token 401. Deleting an approved request ends the caregiver's
// access at once.

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
  caregiver = await makePerson(ctx, 'Caregiver', 'Alex Carer');
});

const invite = (email: string, extra: Record<string, unknown> = {}) => ({
  caregiver_email: email,
  is_family: true,
  relationship: 'Son',
  permissions: ['ReadAppointment'],
  phone_number: '+1 555 123 4567',
  ...extra,
});

const send = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/request/send-request', payload: body });
const get = (person: Person, path: string) => as(ctx, person, { method: 'GET', url: `/api/request/${path}` });
const approve = (person: Person, requestId: string) =>
  as(ctx, person, { method: 'POST', url: '/api/request/approve', payload: { request_id: requestId } });
const reject = (person: Person, requestId: string) =>
  as(ctx, person, { method: 'PATCH', url: '/api/request/reject', payload: { request_id: requestId } });
const remove = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/request/delete', payload: body });

/** The patient invites the caregiver; answers the request's id as the caregiver's received list shows it. */
async function invited(from: Person = patient, to: Person = caregiver, extra: Record<string, unknown> = {}) {
  const sent = await send(from, invite(to.email, extra));
  expect(sent.statusCode).toBe(200);
  const received = (await get(to, 'received')).json<{ data: { request_id: string; email: string }[] }>();
  const request = received.data.find((entry) => entry.email === from.email);
  if (!request) throw new Error('the request did not arrive');
  return request.request_id;
}

describe('POST /request/send-request', () => {
  it('invites a caregiver with an account: a received request, and a mail that says to sign in', async () => {
    const sent = await send(
      patient,
      invite(caregiver.email.toUpperCase(), { patient_id: patient.patientId }),
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ success: true, message: 'Request sent successfully' });
    const mail = lastMailTo(ctx, caregiver.email);
    expect(mail).toContain('Pat Patient invited you to be their caregiver');
    expect(mail).toContain(`${ctx.config.publicUrl}/login`);
    expect(mail).not.toContain('/invite/register/');

    const sentList = (await get(patient, 'sent')).json();
    expect(sentList).toEqual({
      success: true,
      data: [
        {
          request_id: expect.any(String),
          caregiver_email: caregiver.email,
          // Whether the address has an account, and whose, shows once they accept (approved).
          name: null,
          is_family: true,
          relationship: 'Son',
          permissions: ['ReadAppointment'],
          phone_number: '+1 555 123 4567',
          status: 'sent',
          created_at: expect.any(String),
        },
      ],
    });
    const received = (await get(caregiver, 'received')).json();
    expect(received).toEqual({
      success: true,
      data: [
        {
          request_id: sentList.data[0].request_id,
          // No patient id before the link exists: the invitee learns it by accepting.
          name: 'Pat Patient',
          email: patient.email,
          is_family: true,
          relationship: 'Son',
          permissions: ['ReadAppointment'],
          status: 'received',
          created_at: expect.any(String),
        },
      ],
    });
  });

  it('refuses bad input with the domain messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [invite(''), CARE_MESSAGES.emailRequired],
      [invite('not-an-email'), CARE_MESSAGES.emailInvalid],
      [invite(caregiver.email, { permissions: ['ReadEverything'] }), CARE_MESSAGES.permissionsInvalid],
      [invite(caregiver.email, { phone_number: '12' }), CARE_MESSAGES.phoneInvalid],
      [invite(caregiver.email, { relationship: 'x'.repeat(101) }), CARE_MESSAGES.relationshipTooLong],
    ];
    for (const [body, message] of cases) {
      const answer = await send(patient, body);
      expect(answer.statusCode, message).toBe(400);
      expect(answer.json().message).toBe(message);
    }
    const { caregiver_email: _left, ...withoutEmail } = invite(caregiver.email);
    expect((await send(patient, withoutEmail)).json().message).toBe(CARE_MESSAGES.emailRequired);
  });

  it("refuses callers who are not the patient, and the patient's own e-mail", async () => {
    const other = await makePerson(ctx, 'Patient', 'Other Patient');
    const admin = await makePerson(ctx, 'Admin');
    const noToken = await ctx.app.inject({
      method: 'POST',
      url: '/api/request/send-request',
      payload: invite(caregiver.email),
    });
    expect(noToken.statusCode).toBe(401);
    for (const person of [caregiver, admin]) {
      const answer = await send(person, invite('someone@example.com'));
      expect(answer.statusCode).toBe(403);
      expect(answer.json().message).toBe(CARE_MESSAGES.patientOnly);
    }
    expect((await send(patient, invite(caregiver.email, { patient_id: other.patientId }))).statusCode).toBe(
      403,
    );
    const self = await send(patient, invite(patient.email));
    expect([self.statusCode, self.json().message]).toEqual([400, CARE_MESSAGES.inviteSelf]);
    expect(await ctx.database.db.select().from(careRequests)).toEqual([]);
  });

  it('answers the same for every e-mail, and lists every invitation alike: no account, a caregiver, a patient, a doctor', async () => {
    await givePlan(ctx.database.db, patient.userId, 'plus-monthly');
    const otherPatient = await makePerson(ctx, 'Patient', 'Other Patient');
    const doctor = await makePerson(ctx, 'Doctor', 'Doc Tor');
    const emails = ['nobody.yet@example.com', caregiver.email, otherPatient.email, doctor.email];
    for (const email of emails) {
      const answer = await send(patient, invite(email));
      expect([answer.statusCode, answer.json()]).toEqual([
        200,
        { success: true, message: CARE_MESSAGES.requestSent },
      ]);
    }
    const listed = (await get(patient, 'sent')).json<{ data: Record<string, unknown>[] }>().data;
    expect(listed).toHaveLength(4);
    for (const row of listed) {
      const { request_id: _id, caregiver_email: _email, created_at: _at, ...rest } = row;
      expect(rest).toEqual({
        name: null,
        is_family: true,
        relationship: 'Son',
        permissions: ['ReadAppointment'],
        phone_number: '+1 555 123 4567',
        status: 'sent',
      });
    }
    // A second invitation of any of them is refused alike.
    for (const email of emails) {
      const again = await send(patient, invite(email));
      expect([again.statusCode, again.json().message], email).toEqual([409, CARE_MESSAGES.alreadyInvited]);
    }
    // Every address got a mail; one whose account is not a caregiver's is told it cannot accept with it.
    for (const person of [otherPatient, doctor]) {
      const mail = lastMailTo(ctx, person.email) ?? '';
      expect(mail).toContain('Pat Patient invited you to be their caregiver on Kincare');
      expect(mail).toContain('cannot accept');
      expect(mail).not.toContain('/invite/register/');
      expect(mail).not.toContain(patient.patientId ?? 'no patient id');
      // Nothing waits for them: a patient or a doctor has no requests to answer.
      expect((await get(person, 'received')).statusCode).toBe(403);
    }
    expect(lastMailTo(ctx, 'nobody.yet@example.com')).toContain('/invite/register/');
    expect(lastMailTo(ctx, caregiver.email)).toContain(`${ctx.config.publicUrl}/login`);
  });

  it("shows the invitee the patient's name and e-mail, and the patient's id only once they accept", async () => {
    expect((await send(patient, invite(caregiver.email))).statusCode).toBe(200);
    const received = await get(caregiver, 'received');
    expect(received.body).not.toContain(patient.patientId);
    expect(received.body).not.toContain(patient.userId);
    const [request] = received.json<{ data: { request_id: string }[] }>().data;
    expect(lastMailTo(ctx, caregiver.email)).not.toContain(patient.patientId);
    for (const path of ['approved', 'associate-patients', 'permission-requests']) {
      expect((await get(caregiver, path)).body, path).not.toContain(patient.patientId);
    }
    // A permission request for a patient one is not linked to is refused the same for any id.
    const ask = (patientId: string) =>
      as(ctx, caregiver, {
        method: 'POST',
        url: '/api/request/permission-requests',
        payload: { patient_id: patientId, requested_permissions: ['ReadDoctor'] },
      });
    const [real, made] = [await ask(patient.patientId ?? ''), await ask(randomUUID())];
    expect([real.statusCode, real.body]).toEqual([made.statusCode, made.body]);

    expect((await approve(caregiver, request?.request_id ?? '')).statusCode).toBe(200);
    expect((await get(caregiver, 'associate-patients')).body).toContain(patient.patientId);
  });

  it('refuses a second waiting invitation and an invitation of a linked caregiver', async () => {
    expect((await send(patient, invite(caregiver.email))).statusCode).toBe(200);
    const again = await send(patient, invite(caregiver.email));
    expect([again.statusCode, again.json().message]).toEqual([409, CARE_MESSAGES.alreadyInvited]);
    const newPerson = 'new.person@example.com';
    expect((await send(patient, invite(newPerson))).statusCode).toBe(200);
    expect((await send(patient, invite(newPerson))).json().message).toBe(CARE_MESSAGES.alreadyInvited);
    // Another patient may invite the same people.
    const other = await makePerson(ctx, 'Patient', 'Other Patient');
    expect((await send(other, invite(caregiver.email))).statusCode).toBe(200);

    const linked = await makePerson(ctx, 'Caregiver', 'Linked');
    await link(ctx, patient, linked, ['ReadDoctor']);
    const answer = await send(patient, invite(linked.email));
    expect([answer.statusCode, answer.json().message]).toEqual([409, CARE_MESSAGES.alreadyLinked]);
  });

  it('needs the beta policy accepted, and limits invitations per patient and hour', async () => {
    const newcomer = await makePerson(ctx, 'Patient', 'Newcomer', { acceptedBetaPolicy: false });
    const refused = await send(newcomer, invite(caregiver.email));
    expect([refused.statusCode, refused.json().message]).toEqual([403, BETA_POLICY_MESSAGES.notAccepted]);

    // A plan with no caregiver limit: this is the hourly limit, not the plan's.
    await givePlan(ctx.database.db, patient.userId, 'plus-monthly');
    for (let index = 0; index < INVITES_PER_HOUR; index += 1) {
      expect((await send(patient, invite(`person${index}@example.com`))).statusCode).toBe(200);
    }
    const limited = await send(patient, invite('one.more@example.com'));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another patient has a limit of their own.
    const other = await makePerson(ctx, 'Patient', 'Other Patient');
    expect((await send(other, invite('one.more@example.com'))).statusCode).toBe(200);
  });
});

describe('answering a request', () => {
  it('approve links the caregiver with the requested permissions; both sides list the link', async () => {
    const requestId = await invited();
    const approved = await approve(caregiver, requestId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ success: true, message: CARE_MESSAGES.requestApproved });

    const [linkRow] = await ctx.database.db.select().from(careLinks);
    expect(linkRow).toMatchObject({
      patientId: patient.patientId,
      caregiverId: caregiver.caregiverId,
      permissions: ['ReadAppointment'],
      isFamily: true,
      relationship: 'Son',
      phoneNumber: '+1 555 123 4567',
      requestId,
    });
    const shared = {
      request_id: requestId,
      permission_id: linkRow?.id,
      patient_id: patient.patientId,
      caregiver_id: caregiver.caregiverId,
      is_family: true,
      relationship: 'Son',
      permissions: ['ReadAppointment'],
      phone_number: '+1 555 123 4567',
      status: 'approved',
      approved_at: expect.any(String),
    };
    expect((await get(patient, 'approved')).json()).toEqual({
      success: true,
      data: [{ ...shared, name: 'Alex Carer', email: caregiver.email }],
    });
    expect((await get(caregiver, 'approved')).json()).toEqual({
      success: true,
      data: [{ ...shared, name: 'Pat Patient', email: patient.email }],
    });
    expect((await get(caregiver, 'associate-patients')).json()).toEqual({
      success: true,
      assigned_patients: [
        {
          user_id: patient.userId,
          patient_id: patient.patientId,
          name: 'Pat Patient',
          email: patient.email,
          permissions: ['ReadAppointment'],
          permission_id: linkRow?.id,
        },
      ],
    });
    expect((await get(caregiver, 'received')).json().data).toEqual([]);
    expect((await get(patient, 'sent')).json().data).toEqual([]);
    const appointments = await as(ctx, caregiver, {
      method: 'GET',
      url: `/api/appointments?patient=${patient.patientId}`,
    });
    expect(appointments.statusCode).toBe(200);
  });

  it("refuses another caregiver's request (404), an unknown id (404), an answered one (409)", async () => {
    const requestId = await invited();
    const intruder = await makePerson(ctx, 'Caregiver', 'Intruder');
    for (const answer of [await approve(intruder, requestId), await reject(intruder, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([404, CARE_MESSAGES.requestNotFound]);
    }
    expect(await ctx.database.db.select().from(careLinks)).toEqual([]);
    expect((await approve(caregiver, randomUUID())).statusCode).toBe(404);
    const badId = await approve(caregiver, 'not-a-uuid');
    expect([badId.statusCode, badId.json().message]).toEqual([400, CARE_MESSAGES.requestIdInvalid]);

    expect((await reject(caregiver, requestId)).json()).toEqual({
      success: true,
      message: CARE_MESSAGES.requestRejected,
    });
    for (const answer of [await approve(caregiver, requestId), await reject(caregiver, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([409, CARE_MESSAGES.requestNotWaiting]);
    }
    expect((await get(patient, 'sent')).json().data).toMatchObject([
      { request_id: requestId, status: 'rejected' },
    ]);
    expect((await get(caregiver, 'received')).json().data).toEqual([]);
  });

  it('is for caregivers only, and needs a token', async () => {
    const requestId = await invited();
    for (const answer of [await approve(patient, requestId), await reject(patient, requestId)]) {
      expect([answer.statusCode, answer.json().message]).toEqual([403, CARE_MESSAGES.caregiverOnly]);
    }
    for (const path of ['received', 'associate-patients']) {
      expect((await get(patient, path)).statusCode).toBe(403);
    }
    expect((await get(caregiver, 'sent')).statusCode).toBe(403);
    const admin = await makePerson(ctx, 'Admin');
    const adminList = await get(admin, 'approved');
    expect([adminList.statusCode, adminList.json().message]).toEqual([
      403,
      CARE_MESSAGES.patientOrCaregiverOnly,
    ]);
    for (const path of ['sent', 'received', 'approved', 'associate-patients']) {
      expect((await ctx.app.inject({ method: 'GET', url: `/api/request/${path}` })).statusCode).toBe(401);
    }
    const noToken = await ctx.app.inject({
      method: 'POST',
      url: '/api/request/approve',
      payload: { request_id: requestId },
    });
    expect(noToken.statusCode).toBe(401);
  });

  it('reaches a caregiver who signed up after being invited by e-mail', async () => {
    const email = 'late.signup@example.com';
    expect((await send(patient, invite(email))).statusCode).toBe(200);
    const late = await makePerson(ctx, 'Caregiver', 'Late Signup');
    await ctx.database.db.update(users).set({ email }).where(eq(users.id, late.userId));
    const received = (await get(late, 'received')).json().data;
    expect(received).toMatchObject([{ email: patient.email, status: 'received' }]);
    expect((await approve(late, received[0].request_id)).statusCode).toBe(200);
    expect((await get(late, 'associate-patients')).json().assigned_patients).toHaveLength(1);
  });
});

describe('POST /request/delete', () => {
  it('lets the patient delete a sent or rejected request, if its status is still the one shown', async () => {
    const requestId = await invited();
    const stale = await remove(patient, { request_id: requestId, status: 'rejected', request_type: 'sent' });
    expect([stale.statusCode, stale.json().message]).toEqual([409, CARE_MESSAGES.requestNotWaiting]);
    const deleted = await remove(patient, { request_id: requestId, status: 'sent', request_type: 'sent' });
    expect(deleted.json()).toEqual({ success: true, message: CARE_MESSAGES.requestDeleted });
    expect((await get(caregiver, 'received')).json().data).toEqual([]);

    const second = await invited();
    await reject(caregiver, second);
    expect(
      (await remove(patient, { request_id: second, status: 'rejected', request_type: 'sent' })).statusCode,
    ).toBe(200);
    expect((await get(patient, 'sent')).json().data).toEqual([]);
  });

  it("answers 404 for another person's request and 409 when the request was answered meanwhile", async () => {
    const requestId = await invited();
    const other = await makePerson(ctx, 'Patient', 'Other');
    const intruder = await makePerson(ctx, 'Caregiver', 'Intruder');
    const notTheirs = [
      await remove(other, { request_id: requestId, status: 'sent', request_type: 'sent' }),
      await remove(intruder, { request_id: requestId, status: 'received', request_type: 'received' }),
      await remove(caregiver, { request_id: requestId, status: 'sent', request_type: 'sent' }),
      await remove(patient, { request_id: requestId, status: 'received', request_type: 'received' }),
      await remove(patient, { request_id: randomUUID(), status: 'approved', request_type: 'approved' }),
    ];
    for (const answer of notTheirs) {
      expect([answer.statusCode, answer.json().message]).toEqual([404, CARE_MESSAGES.requestNotFound]);
    }
    await approve(caregiver, requestId);
    const stale = await remove(patient, { request_id: requestId, status: 'sent', request_type: 'sent' });
    expect([stale.statusCode, stale.json().message]).toEqual([409, CARE_MESSAGES.requestNotWaiting]);
    expect(await ctx.database.db.select().from(careLinks)).toHaveLength(1);
    const bad = await remove(patient, { request_id: requestId, status: 'gone', request_type: 'sent' });
    expect(bad.statusCode).toBe(400);
    expect((await remove(patient, { request_id: requestId, status: 'sent' })).statusCode).toBe(400);
  });

  it('lets the caregiver decline and remove a received request', async () => {
    const requestId = await invited();
    const deleted = await remove(caregiver, {
      request_id: requestId,
      status: 'received',
      request_type: 'received',
    });
    expect(deleted.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(careRequests)).toEqual([]);
  });

  it('ends the access at once when the patient deletes an approved request', async () => {
    const requestId = await invited(patient, caregiver, {
      permissions: ['ReadAppointment', 'AddAppointment'],
    });
    await approve(caregiver, requestId);
    const appointmentId = randomUUID();
    const created = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: {
        id: appointmentId,
        patient_id: patient.patientId,
        appointment_title: 'Check-up',
        appointment_date: '2026-12-01T09:30:00.000Z',
      },
    });
    expect(created.statusCode).toBe(201);
    const before = (await as(ctx, caregiver, { method: 'GET', url: '/api/sync/pull' })).json();
    expect(before.changes.map((change: { id: string }) => change.id)).toEqual([appointmentId]);
    await as(ctx, caregiver, {
      method: 'POST',
      url: '/api/request/permission-requests',
      payload: { patient_id: patient.patientId, requested_permissions: ['EditAppointment'] },
    });

    const stale = await remove(patient, { request_id: requestId, status: 'sent', request_type: 'approved' });
    expect(stale.statusCode).toBe(409);
    const deleted = await remove(patient, {
      request_id: requestId,
      status: 'approved',
      request_type: 'approved',
    });
    expect(deleted.statusCode).toBe(200);

    const after = await as(ctx, caregiver, {
      method: 'GET',
      url: `/api/sync/pull?cursor=${before.cursor}&scope=${before.scope}`,
    });
    expect(after.json()).toMatchObject({ reset: true, changes: [] });
    const full = await as(ctx, caregiver, { method: 'GET', url: '/api/sync/pull' });
    expect(full.json().changes).toEqual([]);
    const list = await as(ctx, caregiver, {
      method: 'GET',
      url: `/api/appointments?patient=${patient.patientId}`,
    });
    expect(list.statusCode).toBe(403);
    expect((await get(caregiver, 'associate-patients')).json().assigned_patients).toEqual([]);
    expect((await get(patient, 'approved')).json().data).toEqual([]);
    expect(await ctx.database.db.select().from(careLinks)).toEqual([]);
    expect(await ctx.database.db.select().from(permissionRequests)).toEqual([]);
    expect(await ctx.database.db.select().from(careRequests)).toEqual([]);
  });

  it('lets the caregiver leave a patient (approved), and not another caregiver', async () => {
    const linkId = await link(ctx, patient, caregiver, ['ReadAppointment']);
    const intruder = await makePerson(ctx, 'Caregiver', 'Intruder');
    // A link made without an invitation is named by its own id.
    const byIntruder = await remove(intruder, {
      request_id: linkId,
      status: 'approved',
      request_type: 'approved',
    });
    expect(byIntruder.statusCode).toBe(404);
    const left = await remove(caregiver, {
      request_id: linkId,
      status: 'approved',
      request_type: 'approved',
    });
    expect(left.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(careLinks)).toEqual([]);
  });
});

describe('PUT /request/update-permission', () => {
  const update = (person: Person, body: Record<string, unknown>) =>
    as(ctx, person, { method: 'PUT', url: '/api/request/update-permission', payload: body });

  it("replaces the link's permissions and phone number", async () => {
    const linkId = await link(ctx, patient, caregiver, ['ReadAppointment', 'AddAppointment']);
    const answer = await update(patient, {
      permission_id: linkId,
      permissions: ['ReadDoctor', 'ReadDoctor'],
      phone_number: '5551234567',
    });
    expect(answer.json()).toEqual({ success: true, message: CARE_MESSAGES.permissionsUpdated });
    expect((await get(caregiver, 'associate-patients')).json().assigned_patients[0].permissions).toEqual([
      'ReadDoctor',
    ]);
    const [row] = await ctx.database.db.select().from(careLinks);
    expect(row?.phoneNumber).toBe('5551234567');
    const list = await as(ctx, caregiver, {
      method: 'GET',
      url: `/api/appointments?patient=${patient.patientId}`,
    });
    expect(list.statusCode).toBe(403);
  });

  it("refuses another patient's link (404), a caregiver (403), bad input (400), no token (401)", async () => {
    const linkId = await link(ctx, patient, caregiver, ['ReadAppointment']);
    const other = await makePerson(ctx, 'Patient', 'Other');
    const body = { permission_id: linkId, permissions: ['ReadDoctor'] };
    const notTheirs = await update(other, body);
    expect([notTheirs.statusCode, notTheirs.json().message]).toEqual([404, CARE_MESSAGES.linkNotFound]);
    expect((await update(patient, { ...body, permission_id: randomUUID() })).statusCode).toBe(404);
    const byCaregiver = await update(caregiver, body);
    expect([byCaregiver.statusCode, byCaregiver.json().message]).toEqual([403, CARE_MESSAGES.patientOnly]);
    const bad = await update(patient, { ...body, permissions: ['Everything'] });
    expect([bad.statusCode, bad.json().message]).toEqual([400, CARE_MESSAGES.permissionsInvalid]);
    const noToken = await ctx.app.inject({
      method: 'PUT',
      url: '/api/request/update-permission',
      payload: body,
    });
    expect(noToken.statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(careLinks);
    expect(row?.permissions).toEqual(['ReadAppointment']);
  });
});
