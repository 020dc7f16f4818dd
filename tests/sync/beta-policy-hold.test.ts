import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/domain/auth';
import { addAppointment } from '../../src/local/appointments';
import { insertPerson } from '../fixtures/people';
import { makeDevice, startServer, type Server, visitFields } from './harness';

// Changes queued before the person accepted the beta policy (by an older app that did not ask, or offline
// before the policy was shown) are the person's own work: the server refuses them until the policy is
// accepted, and the device keeps them queued, untouched, rather than rolling them back as refused. Once
// the policy is accepted, the next sync sends each of them once.

let server: Server;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());

const visit = (patientId: string, title: string) => visitFields(patientId, title);

describe('changes made before the beta policy is accepted', () => {
  it('wait on the device, are never refused, and are sent once when the policy is accepted', async () => {
    const patient = await insertPerson(server.database().db, server.app(), 'Patient', 'Betty Before', {
      acceptedBetaPolicy: false,
    });
    const phone = await makeDevice(server, patient, 'phone-before-policy');
    const patientId = patient.patientId ?? '';
    // The device's copy of the profile says the policy was accepted (an older app that never asked).
    const profile = await server.app().inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { authorization: `Bearer ${patient.token}` },
    });
    const { data } = JSON.parse(profile.body) as { data: Profile };
    await phone.db.profile.put({ ...data, beta_policy_accepted_at: '2026-01-05T10:00:00.000Z' });
    const first = await addAppointment(phone.db, visit(patientId, 'Eye test'));
    const second = await addAppointment(phone.db, visit(patientId, 'Dentist'));

    const held = await phone.sync();
    expect(held.problem).toBe('policy-not-accepted');
    expect(held.push.rejected).toEqual([]);
    expect(await phone.db.outbox.where('status').equals('pending').count()).toBe(2);
    expect(await phone.db.outbox.where('status').equals('failed').count()).toBe(0);
    // The device now knows: the app shows the policy instead of screens whose changes would wait.
    expect((await phone.db.profile.get(patient.userId))?.beta_policy_accepted_at).toBeNull();
    // Still on the person's screens, as they typed them.
    expect((await phone.db.appointments.get(first))?.appointment_title).toBe('Eye test');
    // Syncing again (a reload, the nightly sync) changes nothing.
    expect((await phone.sync()).problem).toBe('policy-not-accepted');
    expect(await phone.db.outbox.count()).toBe(2);

    const accepted = await server.app().inject({
      method: 'POST',
      url: '/api/auth/beta-policy',
      headers: { authorization: `Bearer ${patient.token}` },
      payload: { notHipaa: true, notForMedicalDecisions: true, dataMayBeDeleted: true, agreeToPolicy: true },
    });
    expect(accepted.statusCode).toBe(200);

    const sent = await phone.sync();
    expect(sent.ok).toBe(true);
    expect(sent.push.sent).toBe(2);
    expect(await phone.db.outbox.count()).toBe(0);
    const listed = await server.app().inject({
      method: 'GET',
      url: '/api/appointments',
      headers: { authorization: `Bearer ${patient.token}` },
    });
    const titles = (JSON.parse(listed.body) as { data: { id: string; appointment_title: string }[] }).data
      .filter((row) => row.id === first || row.id === second)
      .map((row) => row.appointment_title)
      .sort();
    expect(titles).toEqual(['Dentist', 'Eye test']);
    phone.close();
  });
});
