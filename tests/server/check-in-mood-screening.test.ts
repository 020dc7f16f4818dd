import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOOD_SCREENING_QUESTION_IDS, type CheckInQuestion } from '../../src/domain/check-in';
import { medicalHistoryId, MEDICAL_HISTORY_MESSAGES } from '../../src/domain/medical-history';
import { PERMISSIONS } from '../../src/domain/permissions';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// The check-ins' mood screening (PHQ-2) is the patient's to share: a caregiver who reads the check-ins
// with Read Medical History gets the PHQ-2 answers, their total and the follow-up only while the patient's
// medical history says share_mood_screening; every way such a caregiver reads check-ins is played here
// (init, summary, the sync pull), with the setting off, turned on and turned off again (by REST and from a
// device's queue), and the patient always sees their own.

let ctx: TestContext;
let patient: Person;
let reader: Person;
let withoutHistory: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  reader = await makePerson(ctx, 'Caregiver', 'History reader');
  withoutHistory = await makePerson(ctx, 'Caregiver', 'Everything but the history');
  await link(ctx, patient, reader, ['ReadMedicalHistory']);
  await link(
    ctx,
    patient,
    withoutHistory,
    PERMISSIONS.filter((permission) => permission !== 'ReadMedicalHistory'),
  );
});

const today = () => new Date().toISOString().slice(0, 10);
const SCREENING: readonly string[] = MOOD_SCREENING_QUESTION_IDS;

/** A positive screen (total 6), so the follow-up is asked and answered too. */
const ANSWERS = [
  ['mood', 'bad'],
  ['sleep', '5'],
  ['pain', 0],
  ['symptoms', ['none']],
  ['medicines', 'yes'],
  ['phq2_interest', 'nearly_every_day'],
  ['phq2_down', 'nearly_every_day'],
  ['phq2_follow_up', 'yes'],
] as const;

async function answerAll(answers: readonly (readonly [string, unknown])[]) {
  for (const [question_id, answer] of answers) {
    const response = await as(ctx, patient, {
      method: 'POST',
      url: '/api/interactions/respond',
      payload: { day: today(), question_id, answer },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
}

type Init = {
  status: string;
  next_question: CheckInQuestion | null;
  history: { question_id: string; answer: unknown }[];
};
type Day = { day: string; mood: number | null; phq2_score: number | null };
type Pull = {
  changes: { resource: string; id: string; data: { answers?: { question_id: string }[] } | null }[];
  cursor: number;
  scope: string;
  reset: boolean;
};

const forPatient = (person: Person) =>
  person.patientId === patient.patientId ? '' : `&patient=${patient.patientId ?? ''}`;
const init = (person: Person) =>
  as(ctx, person, { method: 'GET', url: `/api/interactions/init?day=${today()}${forPatient(person)}` });
const summary = (person: Person) =>
  as(ctx, person, {
    method: 'GET',
    url: `/api/interactions/summary?days=1&until=${today()}${forPatient(person)}`,
  });
const pull = async (person: Person, from?: Pull): Promise<Pull> => {
  const since = from ? `cursor=${from.cursor}&scope=${from.scope}` : 'cursor=0';
  const response = await as(ctx, person, { method: 'GET', url: `/api/sync/pull?${since}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Pull>();
};
const checkInsOf = (page: Pull) => page.changes.filter((change) => change.resource === 'check_ins');
const questionsIn = (page: Pull) =>
  checkInsOf(page).flatMap((change) => (change.data?.answers ?? []).map((entry) => entry.question_id));

/** The patient's choice, by REST (PUT /api/medical-history). */
async function share(on: boolean) {
  const response = await as(ctx, patient, {
    method: 'PUT',
    url: '/api/medical-history',
    payload: { share_mood_screening: on },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ data: { share_mood_screening: boolean } }>().data.share_mood_screening).toBe(on);
}

/** What a person gets of today's check-in by every read there is, as one list of question ids per read. */
async function whatTheyRead(person: Person) {
  const initial = await init(person);
  expect(initial.statusCode, initial.body).toBe(200);
  const read = await summary(person);
  expect(read.statusCode, read.body).toBe(200);
  return {
    init: initial.json<Init>().history.map((entry) => entry.question_id),
    score: read.json<{ days: Day[] }>().days[0]?.phq2_score,
    pulled: questionsIn(await pull(person)),
  };
}

describe('a caregiver who reads the medical history', () => {
  it('gets no mood screening while the patient does not share it, by REST or by the pull', async () => {
    await answerAll(ANSWERS);
    const shown = await whatTheyRead(reader);
    const visible = ['mood', 'sleep', 'pain', 'symptoms', 'medicines'];
    expect(shown).toEqual({ init: visible, score: null, pulled: visible });
    // Nothing of it anywhere in the answers, the totals included.
    for (const response of [await init(reader), await summary(reader)])
      expect(response.body).not.toMatch(/phq2_(interest|down|follow)/);
    expect(JSON.stringify(await pull(reader))).not.toMatch(/phq2|nearly_every_day/);
    // The rest of the day is there: its status and the other answers.
    expect((await init(reader)).json<Init>().status).toBe('completed');
    expect((await summary(reader)).json<{ days: Day[] }>().days[0]?.mood).toBe(1);
  });

  it('is not told which screening question the patient is on (a follow-up would give the total away)', async () => {
    await answerAll(ANSWERS.slice(0, -1));
    expect((await init(patient)).json<Init>().next_question?.id).toBe('phq2_follow_up');
    expect((await init(reader)).json<Init>()).toMatchObject({ status: 'in_progress', next_question: null });
    // Before the screening, the next question is an ordinary one and says so.
    await as(ctx, patient, { method: 'POST', url: '/api/interactions/reset', payload: { day: today() } });
    await answerAll(ANSWERS.slice(0, 2));
    expect((await init(reader)).json<Init>().next_question?.id).toBe('pain');
  });

  it('gets it all once the patient shares it, and loses it from the next pull when they stop', async () => {
    await answerAll(ANSWERS);
    const first = await pull(reader);
    expect(questionsIn(first).filter((id) => SCREENING.includes(id))).toEqual([]);

    await share(true);
    const all = ANSWERS.map(([question]) => question);
    expect(await whatTheyRead(reader)).toEqual({ init: all, score: 6, pulled: all });
    // The device that pulled before is told to start over, and gets the check-in with the answers.
    const again = await pull(reader, first);
    expect(again.reset).toBe(true);
    expect(questionsIn(again)).toEqual(all);

    await share(false);
    const after = await pull(reader, again);
    // Nothing of the check-in changed, yet the device starts over: what it holds is replaced by the day
    // without the screening (src/local/sync-pull.ts puts each pulled record whole).
    expect(after.reset).toBe(true);
    expect(questionsIn(after)).toEqual(['mood', 'sleep', 'pain', 'symptoms', 'medicines']);
    expect((await summary(reader)).json<{ days: Day[] }>().days[0]?.phq2_score).toBeNull();
    // And a pull from there on goes on as usual.
    expect((await pull(reader, after)).reset).toBe(false);
  });

  it("follows the patient's choice made on a device and sent from its queue", async () => {
    await answerAll(ANSWERS);
    const id = await medicalHistoryId(patient.patientId ?? '');
    const pushed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/sync/push',
      payload: {
        changes: [
          {
            idempotency_key: `mh-${randomUUID()}`,
            resource: 'medical_history',
            op: 'create',
            id,
            payload: { id, patient_id: patient.patientId, share_mood_screening: true },
          },
        ],
      },
    });
    expect(pushed.json<{ results: { status: number }[] }>().results[0]?.status).toBe(200);
    expect(questionsIn(await pull(reader))).toContain('phq2_follow_up');
  });
});

describe('everyone else', () => {
  it('the patient always sees their own, shared or not, and their devices never start over for it', async () => {
    await answerAll(ANSWERS);
    const all = ANSWERS.map(([question]) => question);
    expect(await whatTheyRead(patient)).toEqual({ init: all, score: 6, pulled: all });
    const before = await pull(patient);
    await share(true);
    await share(false);
    expect((await pull(patient, before)).reset).toBe(false);
    expect(await whatTheyRead(patient)).toEqual({ init: all, score: 6, pulled: all });
  });

  it('a caregiver without Read Medical History still gets no check-in at all, shared or not', async () => {
    await answerAll(ANSWERS);
    await share(true);
    for (const response of [await init(withoutHistory), await summary(withoutHistory)]) {
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toMatch(/phq2|nearly_every_day/);
    }
    expect(checkInsOf(await pull(withoutHistory))).toEqual([]);
  });

  it('only the patient turns the sharing on: a caregiver may not, whatever they hold', async () => {
    const trusted = await makePerson(ctx, 'Caregiver', 'Trusted');
    await link(ctx, patient, trusted, [...PERMISSIONS]);
    const tried = await as(ctx, trusted, {
      method: 'PUT',
      url: '/api/medical-history',
      payload: { patient_id: patient.patientId, share_mood_screening: true },
    });
    expect(tried.statusCode).toBe(403);
    expect(tried.json()).toEqual({ message: MEDICAL_HISTORY_MESSAGES.caregiverReadOnly });
    await answerAll(ANSWERS);
    expect(questionsIn(await pull(reader)).filter((id) => SCREENING.includes(id))).toEqual([]);
  });

  it('a value that is not true or false is refused, and changes nothing', async () => {
    const refused = await as(ctx, patient, {
      method: 'PUT',
      url: '/api/medical-history',
      payload: { share_mood_screening: 'yes' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      MEDICAL_HISTORY_MESSAGES.shareMoodScreeningInvalid,
    );
    await answerAll(ANSWERS);
    expect(questionsIn(await pull(reader)).filter((id) => SCREENING.includes(id))).toEqual([]);
  });
});
