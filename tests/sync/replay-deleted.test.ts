import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addAppointment, removeAppointment } from '../../src/local/appointments';
import { push } from '../../src/local/sync-push';
import { makeAccount, makeDevice, startServer, type Account, type Server, visitFields } from './harness';

// A device whose answer to a create was lost sends the create again; meanwhile another device deleted the
// record. The server answers the replay with what is true now (the record is deleted), so the device
// takes it off its screens at once, instead of showing the deleted record again until its next pull.

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

const visit = (account: Account) => visitFields(account.patientId ?? '');

describe('a create sent again after its record was deleted elsewhere', () => {
  it('is acknowledged, and leaves the record off the device', async () => {
    const phone = await makeDevice(server, patient, 'phone-replay');
    const laptop = await makeDevice(server, patient, 'laptop-replay');
    const id = await addAppointment(phone.db, visit(patient));
    phone.network.loseAnswerRate = 1;
    expect((await push(phone.db, phone.network.transport, { force: true })).stoppedBy).toBe('retry-later');
    expect(await phone.db.outbox.count()).toBe(1); // applied by the server; the device does not know

    await laptop.sync();
    expect(await laptop.db.appointments.get(id)).toBeDefined();
    await removeAppointment(laptop.db, id);
    expect((await laptop.sync()).ok).toBe(true);

    phone.network.loseAnswerRate = 0;
    const outcome = await push(phone.db, phone.network.transport, { force: true });
    expect([outcome.sent, outcome.rejected, outcome.stoppedBy]).toEqual([1, [], 'done']);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.appointments.get(id)).toBeUndefined();
    // The pull after it agrees.
    expect((await phone.sync()).ok).toBe(true);
    expect(await phone.db.appointments.get(id)).toBeUndefined();
    phone.close();
    laptop.close();
  });
});
