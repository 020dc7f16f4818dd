import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { BETA_POLICY_NOT_ACCEPTED } from '../../src/domain/auth';
import { CHECK_IN_MESSAGES, CRISIS_NOTE, type CheckInQuestion } from '../../src/domain/check-in';
import { PERMISSIONS } from '../../src/domain/permissions';
import { records } from '../../src/server/db/schema';
import { dayWithinReach, daysUntil } from '../../src/server/services/check-in-days';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// The daily health check-in on the real app: the whole conversation through
// /api/interactions, the days a check-in may be for, answers sent again (as a device replays its queue),
// answers out of turn (409), skip and reset, the 30-day summary, and who may read and who may answer.

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
});
afterEach(() => {
  vi.useRealTimers();
});

const DAY_MS = 86_400_000;
/** The server's date moved by `offset` days. */
const dayFromToday = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

type Step = {
  completed: boolean;
  status: string;
  next_question: CheckInQuestion | null;
  interaction_id: string;
};
type Init = Step & {
  session: { day: string; status: string };
  history: { question_id: string; prompt: string; answer: unknown; answer_text: string }[];
};
type Summary = {
  until: string;
  days: {
    day: string;
    status: string | null;
    mood: number | null;
    pain: number | null;
    sleep_hours: number | null;
    phq2_score: number | null;
  }[];
};

/** The stored check-ins: synced records of resource `check_ins`. */
const checkInRows = () => ctx.database.db.select().from(records).where(eq(records.resource, 'check_ins'));

const init = (person: Person, query: Record<string, string>) =>
  as(ctx, person, { method: 'GET', url: `/api/interactions/init?${new URLSearchParams(query)}` });
const respond = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/interactions/respond', payload: body });
const reset = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/interactions/reset', payload: body });
const summary = (person: Person, query: Record<string, string>) =>
  as(ctx, person, { method: 'GET', url: `/api/interactions/summary?${new URLSearchParams(query)}` });
const answer = (question_id: string, value: unknown, day = dayFromToday(0), person = patient) =>
  respond(person, { day, question_id, answer: value });
const historyOf = async (day = dayFromToday(0), person = patient) => {
  const response = await init(person, { day });
  expect(response.statusCode).toBe(200);
  return response.json<Init>().history.map((entry) => [entry.question_id, entry.answer]);
};

/** Everything but a positive screen: pain, symptoms and the follow-up each asked. */
const FULL = {
  mood: 'not_so_good',
  sleep: '5',
  pain: 6,
  pain_location: ['back', 'head'],
  symptoms: ['tiredness', 'cough'],
  symptom_impact: 'somewhat',
  medicines: 'partly',
  phq2_interest: 'more_than_half',
  phq2_down: 'several_days',
  phq2_follow_up: 'yes',
} as const;

/** No pain, no symptoms, a negative screen: seven questions (PHQ-2 answered 1 + ...: see each test). */
const CALM = [
  ['mood', 'okay'],
  ['sleep', '8'],
  ['pain', 0],
  ['symptoms', ['none']],
  ['medicines', 'yes'],
  ['phq2_interest', 'several_days'],
  ['phq2_down', 'not_at_all'],
] as const;
async function answerAll(answers: readonly (readonly [string, unknown])[], day = dayFromToday(0)) {
  for (const [question, value] of answers) {
    const response = await answer(question, value, day);
    expect(response.statusCode, `${question}: ${response.body}`).toBe(200);
  }
}

describe('the conversation', () => {
  it('starts at the first question, asks the next one after each answer, and says when it is complete', async () => {
    const day = dayFromToday(0);
    const start = await init(patient, { day });
    expect(start.statusCode).toBe(200);
    const first = start.json<Init>();
    expect(first).toMatchObject({ session: { day, status: 'in_progress' }, history: [], completed: false });
    expect(first.next_question?.id).toBe('mood');
    expect(first.interaction_id).toMatch(/^[0-9a-f-]{36}$/);

    const asked: string[] = [];
    let step: Step = first;
    while (step.next_question) {
      const id = step.next_question.id;
      asked.push(id);
      const response = await answer(id, FULL[id]);
      expect(response.statusCode, response.body).toBe(200);
      step = response.json<Step>();
      expect(step.interaction_id).toBe(first.interaction_id);
    }
    expect(asked).toEqual(Object.keys(FULL));
    expect(step).toMatchObject({ completed: true, status: 'completed', next_question: null });

    const done = (await init(patient, { day })).json<Init>();
    expect(done).toMatchObject({ completed: true, session: { status: 'completed' }, next_question: null });
    expect(done.history.map((entry) => entry.question_id)).toEqual(asked);
    expect(done.history[3]).toMatchObject({ answer: ['head', 'back'], answer_text: 'Head, Back' });
  });

  it('asks the gentle follow-up, with the crisis line, only after a positive PHQ-2 screen', async () => {
    await answerAll(CALM.slice(0, -1));
    const negative = await answer('phq2_down', 'several_days'); // 1 + 1
    expect(negative.json<Step>()).toMatchObject({ completed: true, next_question: null });
    await reset(patient, { day: dayFromToday(0) });
    await answerAll(CALM.slice(0, -1));
    const positive = (await answer('phq2_down', 'more_than_half')).json<Step>(); // 1 + 2
    expect(positive.completed).toBe(false);
    expect(positive.next_question).toMatchObject({ id: 'phq2_follow_up', note: CRISIS_NOTE });
  });
});

describe('answers sent again and out of turn', () => {
  it('the same answer again changes nothing, also after the check-in moved on', async () => {
    const first = await answer('mood', 'good');
    const again = await answer('mood', 'good');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    await answer('sleep', '7');
    const [before] = await checkInRows();
    const late = await answer('mood', 'good'); // a device replaying its queue
    expect(late.statusCode).toBe(200);
    expect(late.json<Step>().next_question?.id).toBe('pain');
    const [after] = await checkInRows();
    expect(after).toEqual(before);
    expect(await historyOf()).toEqual([
      ['mood', 'good'],
      ['sleep', '7'],
    ]);
    // Multi-choice answers are the same answer in any order.
    await answer('pain', 0);
    await answer('symptoms', ['fever', 'cough']);
    expect((await answer('symptoms', ['cough', 'fever'])).statusCode).toBe(200);
    expect((await historyOf()).length).toBe(4);
  });

  it('two devices sending the same answer at once store it once; different answers: one wins, one is 409', async () => {
    const same = await Promise.all([answer('mood', 'good'), answer('mood', 'good')]);
    expect(same.map((response) => response.statusCode)).toEqual([200, 200]);
    const different = await Promise.all([answer('sleep', '6'), answer('sleep', '8')]);
    expect(different.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect((await historyOf()).length).toBe(2);
  });

  it('an answer to a question that is not the next one is 409, with a message, and stores nothing', async () => {
    const early = await answer('sleep', '7');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      message: CHECK_IN_MESSAGES.notNextQuestion('How are you feeling today?'),
    });
    await answer('mood', 'good');
    expect((await answer('mood', 'bad')).json()).toEqual({ message: CHECK_IN_MESSAGES.answeredDifferently });
    await answer('sleep', '7');
    await answer('pain', 0);
    // No pain: where it hurts is not asked.
    expect((await answer('pain_location', ['head'])).statusCode).toBe(409);
    expect(await historyOf()).toEqual([
      ['mood', 'good'],
      ['sleep', '7'],
      ['pain', 0],
    ]);
  });

  it('a complete check-in takes no more answers', async () => {
    await answerAll(CALM);
    const more = await answer('phq2_follow_up', 'yes');
    expect(more.statusCode).toBe(409);
    expect(more.json()).toEqual({ message: CHECK_IN_MESSAGES.alreadyComplete });
  });
});

describe('skip and reset', () => {
  it('skipping closes the day: nothing more is asked or taken until a reset, which starts again', async () => {
    const day = dayFromToday(0);
    await answer('mood', 'good');
    const skipped = await respond(patient, { day, action: 'skip' });
    expect(skipped.json()).toMatchObject({ completed: false, status: 'skipped', next_question: null });
    expect((await respond(patient, { day, action: 'skip' })).json<Step>().status).toBe('skipped');
    expect((await init(patient, { day })).json<Init>()).toMatchObject({
      session: { status: 'skipped' },
      next_question: null,
    });
    const late = await answer('sleep', '7');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: CHECK_IN_MESSAGES.skipped });

    const restarted = await reset(patient, { day, interaction_id: skipped.json<Step>().interaction_id });
    expect(restarted.statusCode).toBe(200);
    expect(restarted.json()).toMatchObject({
      completed: false,
      status: 'in_progress',
      next_question: { id: 'mood' },
    });
    expect(await historyOf(day)).toEqual([]);
    expect((await answer('mood', 'bad')).statusCode).toBe(200);
  });

  it('skipping a complete check-in leaves it complete; resetting a day with nothing is fine', async () => {
    await answerAll(CALM);
    const skipped = await respond(patient, { day: dayFromToday(0), action: 'skip' });
    expect(skipped.json()).toMatchObject({ completed: true, status: 'completed' });
    expect((await reset(patient, { day: dayFromToday(-1) })).statusCode).toBe(200);
  });
});

describe('days', () => {
  it('takes the device date from a week back to a day ahead of the server, and nothing further', async () => {
    for (const offset of [1, 0, -1, -7]) {
      expect((await answer('mood', 'good', dayFromToday(offset))).statusCode, `day ${offset}`).toBe(200);
    }
    for (const offset of [2, 30, -8, -365]) {
      const day = dayFromToday(offset);
      for (const response of [
        await answer('mood', 'good', day),
        await init(patient, { day }),
        await reset(patient, { day }),
      ]) {
        expect(response.statusCode, `day ${offset}`).toBe(400);
        expect(response.json<{ message: string }>().message).toBe(CHECK_IN_MESSAGES.dayOutOfReach);
      }
    }
    expect((await checkInRows()).length).toBe(4);
  });

  it('each day is a check-in of its own, named by its interaction id', async () => {
    const today = (await answer('mood', 'good')).json<Step>();
    const yesterday = (await answer('mood', 'bad', dayFromToday(-1))).json<Step>();
    expect(today.interaction_id).not.toBe(yesterday.interaction_id);
    const crossed = await respond(patient, {
      day: dayFromToday(0),
      interaction_id: yesterday.interaction_id,
      question_id: 'sleep',
      answer: '7',
    });
    expect(crossed.statusCode).toBe(404);
    const named = { day: dayFromToday(0), interaction_id: today.interaction_id.toUpperCase() };
    expect((await respond(patient, { ...named, question_id: 'sleep', answer: '7' })).statusCode).toBe(200);
    expect(await historyOf()).toEqual([
      ['mood', 'good'],
      ['sleep', '7'],
    ]);
    expect(await historyOf(dayFromToday(-1))).toEqual([['mood', 'bad']]);
  });

  it('the rule of days, by the clock', () => {
    const now = new Date('2026-11-24T23:30:00Z');
    expect(['2026-11-25', '2026-11-24', '2026-11-17'].map((day) => dayWithinReach(day, now))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['2026-11-26', '2026-11-16'].map((day) => dayWithinReach(day, now))).toEqual([false, false]);
    expect(daysUntil('2028-03-01', 3)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });
});

describe('bad input', () => {
  const refusal = async (response: Promise<{ statusCode: number; json: <T>() => T }>) => {
    const answered = await response;
    return [answered.statusCode, answered.json<{ message: string }>().message];
  };

  it('is refused with a 400 that says what is wrong, and stores nothing', async () => {
    const day = dayFromToday(0);
    const cases: [Record<string, unknown>, string][] = [
      [{ day, question_id: 'weight', answer: 80 }, CHECK_IN_MESSAGES.questionUnknown],
      [{ day, question_id: 'mood', answer: 'fine' }, CHECK_IN_MESSAGES.chooseOne],
      [{ day, question_id: 'mood' }, CHECK_IN_MESSAGES.chooseOne],
      [{ day, question_id: 'pain', answer: 11 }, CHECK_IN_MESSAGES.scale(0, 10)],
      [{ day, question_id: 'pain', answer: '3' }, CHECK_IN_MESSAGES.scale(0, 10)],
      [
        { day, question_id: 'symptoms', answer: ['none', 'cough'] },
        CHECK_IN_MESSAGES.exclusive('None of these'),
      ],
      [{ day, question_id: 'symptoms', answer: [] }, CHECK_IN_MESSAGES.chooseSome],
      [{ day, question_id: 'mood', answer: 'good', action: 'skip' }, CHECK_IN_MESSAGES.answerOrSkip],
      [{ day }, CHECK_IN_MESSAGES.answerOrSkip],
      [{ day, answer: 'good' }, CHECK_IN_MESSAGES.answerOrSkip],
      [{ day, action: 'finish' }, CHECK_IN_MESSAGES.answerOrSkip],
      [{ question_id: 'mood', answer: 'good' }, CHECK_IN_MESSAGES.dayInvalid],
      [{ day: '2026-02-30', question_id: 'mood', answer: 'good' }, CHECK_IN_MESSAGES.dayInvalid],
      [{ day, question_id: 'mood', answer: 'good', patient_id: 'me' }, CHECK_IN_MESSAGES.patientInvalid],
      [{ day, question_id: 'mood', answer: 'good', interaction_id: 'x' }, CHECK_IN_MESSAGES.notFound],
    ];
    for (const [body, message] of cases) {
      expect(await refusal(respond(patient, body)), JSON.stringify(body)).toEqual([400, message]);
    }
    // A day that is no date is not also said to be too far away.
    const notADay = await respond(patient, { day: 'soon', action: 'skip' });
    expect(notADay.json<{ errors: unknown[] }>().errors).toEqual([
      { msg: CHECK_IN_MESSAGES.dayInvalid, path: 'day' },
    ]);
    expect(await refusal(reset(patient, {}))).toEqual([400, CHECK_IN_MESSAGES.dayInvalid]);
    expect(await refusal(init(patient, {}))).toEqual([400, CHECK_IN_MESSAGES.dayInvalid]);
    expect(await refusal(init(patient, { day, patient: 'me' }))).toEqual([
      400,
      CHECK_IN_MESSAGES.patientInvalid,
    ]);
    for (const days of ['0', '91', '2.5', 'abc']) {
      expect(await refusal(summary(patient, { days })), days).toEqual([400, CHECK_IN_MESSAGES.daysInvalid]);
    }
    expect(await refusal(summary(patient, { until: '2026-13-01' }))).toEqual([
      400,
      CHECK_IN_MESSAGES.dayInvalid,
    ]);
    expect((await checkInRows()).length).toBe(0);
  });
});

describe('the summary', () => {
  it('gives the last 30 days for the charts, oldest first, from check-ins answered on each day', async () => {
    const noon = Date.parse(`${dayFromToday(0)}T12:00:00Z`);
    const days: string[] = [];
    // Each day answered on its own day (only Date is faked: the server's clock walks back a day at a time).
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let back = 29; back >= 0; back -= 1) {
      vi.setSystemTime(noon - back * DAY_MS);
      const day = dayFromToday(0);
      days.push(day);
      if (back % 10 === 5) continue; // days 24, 14 and 4 back: no check-in
      if (back % 10 === 7) {
        await respond(patient, { day, action: 'skip' }); // skipped with nothing answered
        continue;
      }
      await answerAll(
        [
          ['mood', ['bad', 'not_so_good', 'okay', 'good', 'very_good'][back % 5]],
          ['sleep', String(4 + (back % 6))],
          ['pain', back % 11],
        ],
        day,
      );
    }
    vi.useRealTimers();
    const response = await summary(patient, { days: '30', until: days[29] ?? '' });
    expect(response.statusCode).toBe(200);
    const chart = response.json<Summary>();
    expect(chart.days.map((entry) => entry.day)).toEqual(days);
    chart.days.forEach((entry, index) => {
      const back = 29 - index;
      if (back % 10 === 5)
        expect(entry).toEqual({
          day: entry.day,
          status: null,
          mood: null,
          sleep_hours: null,
          pain: null,
          phq2_score: null,
        });
      else if (back % 10 === 7) expect(entry).toMatchObject({ status: 'skipped', mood: null, pain: null });
      else
        expect(entry, entry.day).toEqual({
          day: entry.day,
          status: 'in_progress',
          mood: (back % 5) + 1,
          sleep_hours: 4 + (back % 6),
          pain: back % 11,
          phq2_score: null,
        });
    });
    const week = (await summary(patient, { days: '7', until: days[29] ?? '' })).json<Summary>();
    expect(week.days.map((entry) => entry.day)).toEqual(days.slice(23));
    // Thirty days by default, ending with the server's date.
    const fallback = (await summary(patient, {})).json<Summary>();
    expect(fallback.days.length).toBe(30);
    expect(fallback.until).toBe(new Date().toISOString().slice(0, 10));
  });

  it('gives a complete day its PHQ-2 total', async () => {
    await answerAll([...CALM.slice(0, -1), ['phq2_down', 'nearly_every_day'], ['phq2_follow_up', 'not_now']]);
    const [today] = (await summary(patient, { days: '1', until: dayFromToday(0) })).json<Summary>().days;
    expect(today).toMatchObject({ status: 'completed', mood: 3, sleep_hours: 8, pain: 0, phq2_score: 4 });
  });
});

describe('who may read and who may answer', () => {
  it("a caregiver reads a linked patient's check-in and summary with Read Medical History, and not without", async () => {
    await answerAll([['mood', 'good']]);
    const day = dayFromToday(0);
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    await link(ctx, patient, reader, ['ReadMedicalHistory']);
    const readable = await init(reader, { day, patient: patient.patientId ?? '' });
    expect(readable.statusCode).toBe(200);
    expect(readable.json<Init>().history).toMatchObject([{ question_id: 'mood', answer: 'good' }]);
    expect((await summary(reader, { patient: patient.patientId ?? '' })).statusCode).toBe(200);
    // A caregiver must say whose check-in.
    expect((await init(reader, { day })).json()).toEqual({ message: 'Please select patient.' });

    const others = await makePerson(ctx, 'Caregiver', 'Everything else');
    await link(
      ctx,
      patient,
      others,
      PERMISSIONS.filter((permission) => permission !== 'ReadMedicalHistory'),
    );
    const stranger = await makePerson(ctx, 'Caregiver', 'Stranger');
    const otherPatient = await makePerson(ctx, 'Patient', 'Other patient');
    for (const caller of [others, stranger, otherPatient]) {
      const refused = await init(caller, { day, patient: patient.patientId ?? '' });
      expect(refused.statusCode, caller.name).toBe(403);
      expect(refused.body).not.toContain('good');
      expect((await summary(caller, { patient: patient.patientId ?? '' })).statusCode, caller.name).toBe(403);
    }
  });

  it('nobody but the patient answers, skips or resets their check-in, whatever they were granted', async () => {
    const day = dayFromToday(0);
    await answerAll([['mood', 'good']]);
    const trusted = await makePerson(ctx, 'Caregiver', 'Trusted');
    await link(ctx, patient, trusted, [...PERMISSIONS]);
    const otherPatient = await makePerson(ctx, 'Patient', 'Other patient');
    const owner = { patient_id: patient.patientId };
    const tries = [
      [
        trusted,
        respond(trusted, { ...owner, day, question_id: 'sleep', answer: '7' }),
        CHECK_IN_MESSAGES.patientOnly,
      ],
      [trusted, respond(trusted, { day, action: 'skip' }), CHECK_IN_MESSAGES.patientOnly],
      [trusted, reset(trusted, { ...owner, day }), CHECK_IN_MESSAGES.patientOnly],
      [otherPatient, respond(otherPatient, { ...owner, day, question_id: 'sleep', answer: '7' }), null],
      [otherPatient, reset(otherPatient, { ...owner, day }), null],
    ] as const;
    for (const [caller, attempt, message] of tries) {
      const response = await attempt;
      expect(response.statusCode, caller.name).toBe(403);
      if (message) expect(response.json()).toEqual({ message });
    }
    // Another patient naming the owner's check-in by its id finds nothing of it.
    const { interaction_id } = (await init(patient, { day })).json<Init>();
    const named = await respond(otherPatient, { day, interaction_id, question_id: 'mood', answer: 'bad' });
    expect(named.statusCode).toBe(404);
    expect(await historyOf(day)).toEqual([['mood', 'good']]);
    const [row] = (await checkInRows()).filter((stored) => stored.patientId === patient.patientId);
    expect(row?.data.status).toBe('in_progress');
    expect((await checkInRows()).length).toBe(1);
  });

  it('answering needs the beta policy accepted; reading does not; no token is 401', async () => {
    const newcomer = await makePerson(ctx, 'Patient', 'Newcomer', { acceptedBetaPolicy: false });
    const day = dayFromToday(0);
    for (const attempt of [
      answer('mood', 'good', day, newcomer),
      respond(newcomer, { day, action: 'skip' }),
      reset(newcomer, { day }),
    ]) {
      const response = await attempt;
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe(BETA_POLICY_NOT_ACCEPTED);
    }
    expect((await init(newcomer, { day })).statusCode).toBe(200);
    expect((await checkInRows()).length).toBe(0);
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/api/interactions/init?day=${day}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

it('is described in the OpenAPI document (the fuzz gate reads its requests from there)', async () => {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json<{
    paths: Record<string, object>;
  }>();
  for (const path of ['init', 'respond', 'reset', 'summary']) {
    expect(doc.paths[`/api/interactions/${path}`], path).toBeDefined();
  }
});
