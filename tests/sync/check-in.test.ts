import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CHECK_IN_MESSAGES, type CheckInAnswer, type CheckInQuestionId } from '../../src/domain/check-in';
import { checkInId } from '../../src/domain/check-in-steps';
import {
  answerCheckIn,
  checkInOf,
  moodScreeningShared,
  resetCheckIn,
  skipCheckIn,
} from '../../src/local/check-in';
import { saveMoodScreeningSharing } from '../../src/local/medical-history';
import { records } from '../../src/server/db/schema';
import { linkCaregiver, makeAccount, makeDevice, startServer, type Account, type Server } from './harness';

// The daily check-in answered with no signal: the device moves through the questions
// on its own, queues each step, and replays them in order when it is back; the server applies the same
// rules, so the device and the server end with the same day. Another device's different answer wins
// when it arrived first: this device's step is refused with the reason and rolled back.

let server: Server;
let patient: Account;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => server.close());
beforeEach(async () => {
  patient = await makeAccount(server, 'Patient');
});

/** The server's date: the device's day must be within its reach (a day either side of UTC). */
const DAY = new Date().toISOString().slice(0, 10);

const CALM: readonly (readonly [CheckInQuestionId, CheckInAnswer])[] = [
  ['mood', 'good'],
  ['sleep', '7'],
  ['pain', 0],
  ['symptoms', ['none']],
  ['medicines', 'yes'],
  ['phq2_interest', 'not_at_all'],
  ['phq2_down', 'several_days'],
];

async function serverCheckIn(id: string) {
  const [row] = await server.database().db.select().from(records).where(eq(records.id, id));
  return row;
}

describe('a check-in answered offline', () => {
  it('is answered to the end on the device, replays in order, and both sides end the same', async () => {
    const phone = await makeDevice(server, patient, 'phone');
    const patientId = patient.patientId ?? '';
    phone.network.online = false;
    for (const [question, answer] of CALM) {
      const result = await answerCheckIn(phone.db, patientId, DAY, question, answer);
      expect(result.ok, question).toBe(true);
    }
    expect((await checkInOf(phone.db, patientId, DAY)).status).toBe('completed');
    expect(await phone.db.outbox.count()).toBe(CALM.length);
    expect((await phone.sync()).problem).toBe('offline');

    phone.network.online = true;
    const result = await phone.sync();
    expect(result.ok).toBe(true);
    const id = await checkInId(patientId, DAY);
    const stored = await serverCheckIn(id);
    expect(stored?.data).toMatchObject({ day: DAY, status: 'completed' });
    expect(stored?.data.answers).toEqual(CALM.map(([question_id, answer]) => ({ question_id, answer })));
    // Nothing of the device's bookkeeping (the step, its label) is stored with the record.
    expect(Object.keys(stored?.data ?? {}).sort()).toEqual(['answers', 'day', 'status']);
    expect(await phone.db.outbox.count()).toBe(0);
    const local = await checkInOf(phone.db, patientId, DAY);
    expect(local.version).toBe(stored?.version);
    expect(local.status).toBe('completed');
    phone.close();
  });

  it("loses to another device's different answer that arrived first: refused with the reason, rolled back", async () => {
    const patientId = patient.patientId ?? '';
    const phone = await makeDevice(server, patient, 'phone2');
    const tablet = await makeDevice(server, patient, 'tablet2');
    phone.network.online = false;
    await answerCheckIn(phone.db, patientId, DAY, 'mood', 'bad');
    await answerCheckIn(tablet.db, patientId, DAY, 'mood', 'very_good');
    await answerCheckIn(tablet.db, patientId, DAY, 'sleep', '8');
    expect((await tablet.sync()).ok).toBe(true);

    phone.network.online = true;
    const result = await phone.sync();
    expect(result.push.rejected[0]?.message).toBe(CHECK_IN_MESSAGES.answeredDifferently);
    await phone.sync(true);
    const local = await checkInOf(phone.db, patientId, DAY);
    expect(local.answers).toEqual([
      { question_id: 'mood', answer: 'very_good' },
      { question_id: 'sleep', answer: '8' },
    ]);
    phone.close();
    tablet.close();
  });

  it('reaches a caregiver with Read Medical History, who pulls it and cannot answer for the patient', async () => {
    const patientId = patient.patientId ?? '';
    const phone = await makeDevice(server, patient, 'phone3');
    await skipCheckIn(phone.db, patientId, DAY);
    expect((await phone.sync()).ok).toBe(true);
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadMedicalHistory']);
    const carer = await makeDevice(server, caregiver, 'carer3');
    expect((await carer.sync()).ok).toBe(true);
    expect((await checkInOf(carer.db, patientId, DAY)).status).toBe('skipped');

    // The app never offers it; a change queued all the same is refused and rolled back.
    phone.close();
    const reset = await resetCheckIn(carer.db, patientId, DAY);
    expect(reset.ok).toBe(true);
    const refused = await carer.sync();
    expect(refused.push.rejected[0]?.message).toBe(CHECK_IN_MESSAGES.patientOnly);
    expect((await checkInOf(carer.db, patientId, DAY)).status).toBe('skipped');
    expect((await serverCheckIn(await checkInId(patientId, DAY)))?.data.status).toBe('skipped');
    carer.close();
  });
});

describe('the mood screening on a caregiver’s device', () => {
  const questionsOn = async (db: Parameters<typeof checkInOf>[0]) =>
    (await checkInOf(db, patient.patientId ?? '', DAY)).answers.map((entry) => entry.question_id);
  const EVERYTHING_ELSE = ['mood', 'sleep', 'pain', 'symptoms', 'medicines'];

  it('arrives only while the patient shares it, and leaves the device on the pull after they stop', async () => {
    const patientId = patient.patientId ?? '';
    const phone = await makeDevice(server, patient, 'phone-share');
    for (const [question, answer] of CALM) await answerCheckIn(phone.db, patientId, DAY, question, answer);
    expect((await phone.sync()).ok).toBe(true);
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, ['ReadMedicalHistory']);
    const carer = await makeDevice(server, caregiver, 'carer-share');
    expect((await carer.sync()).ok).toBe(true);
    expect(await questionsOn(carer.db)).toEqual(EVERYTHING_ELSE);
    expect(await moodScreeningShared(carer.db, patientId)).toBe(false);

    // Turned on offline: queued like any change of the history, sent when the phone is back.
    phone.network.online = false;
    await saveMoodScreeningSharing(phone.db, patientId, true);
    expect((await phone.sync()).problem).toBe('offline');
    expect((await carer.sync()).ok).toBe(true);
    expect(await questionsOn(carer.db)).toEqual(EVERYTHING_ELSE);
    phone.network.online = true;
    expect((await phone.sync()).ok).toBe(true);
    expect((await carer.sync()).ok).toBe(true);
    expect(await moodScreeningShared(carer.db, patientId)).toBe(true);
    expect(await questionsOn(carer.db)).toEqual(CALM.map(([question]) => question));

    // Turned off: the check-in did not change, yet the caregiver's copy loses the answers it had.
    await saveMoodScreeningSharing(phone.db, patientId, false);
    expect((await phone.sync()).ok).toBe(true);
    expect((await carer.sync()).ok).toBe(true);
    expect(await moodScreeningShared(carer.db, patientId)).toBe(false);
    expect(await questionsOn(carer.db)).toEqual(EVERYTHING_ELSE);
    // The patient's own devices keep their whole day throughout.
    expect(await questionsOn(phone.db)).toEqual(CALM.map(([question]) => question));
    phone.close();
    carer.close();
  });
});
