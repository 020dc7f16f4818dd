import { describe, expect, it } from 'vitest';
import {
  answerText,
  CHECK_IN_MESSAGES,
  CHECK_IN_QUESTION_IDS,
  CHECK_IN_QUESTIONS,
  checkInDaySchema,
  checkInQuestionSchema,
  CRISIS_NOTE,
  dailySummary,
  historyOf,
  isComplete,
  MOOD_SCREENING_QUESTION_IDS,
  nextQuestion,
  questionById,
  recordWithoutMoodScreening,
  sameAnswer,
  validateAnswer,
  withoutMoodScreening,
  type CheckInAnswer,
  type CheckInEntry,
  type CheckInQuestionId,
} from '../../../src/domain/check-in';
import {
  applyCheckInStep,
  checkInId,
  checkInStepBodySchema,
  questionToAsk,
  stepOfBody,
  type CheckInState,
  type CheckInStep,
} from '../../../src/domain/check-in-steps';

// The daily check-in's rules: the catalogue, which question comes next after which answers (every
// branch: pain, symptoms, the PHQ-2 screen), what an answer may be (with the message a person sees),
// the conversation as it is shown, and the day's figures the charts plot.

const PHQ2 = ['not_at_all', 'several_days', 'more_than_half', 'nearly_every_day'] as const;

/** Answers each question as `given` says, in the order the check-in asks them; the ids asked, in order. */
function walk(given: Partial<Record<CheckInQuestionId, CheckInAnswer>>): {
  asked: CheckInQuestionId[];
  answers: CheckInEntry[];
} {
  const answers: CheckInEntry[] = [];
  const asked: CheckInQuestionId[] = [];
  for (let question = nextQuestion(answers); question; question = nextQuestion(answers)) {
    asked.push(question.id);
    const answer = given[question.id];
    if (answer === undefined) throw new Error(`no answer given for ${question.id}`);
    answers.push({ question_id: question.id, answer });
    if (asked.length > CHECK_IN_QUESTIONS.length) throw new Error('the check-in never ends');
  }
  return { asked, answers };
}

const calm = {
  mood: 'good',
  sleep: '7',
  pain: 0,
  pain_location: ['back'],
  symptoms: ['none'],
  symptom_impact: 'a_little',
  medicines: 'yes',
  phq2_interest: 'not_at_all',
  phq2_down: 'not_at_all',
  phq2_follow_up: 'yes',
} satisfies Record<CheckInQuestionId, CheckInAnswer>;

describe('the catalogue', () => {
  it('has every question once, in the order of its ids, each as the API sends it', () => {
    expect(CHECK_IN_QUESTIONS.map((question) => question.id)).toEqual([...CHECK_IN_QUESTION_IDS]);
    for (const question of CHECK_IN_QUESTIONS) {
      expect(checkInQuestionSchema.parse(question)).toEqual(question);
      if (question.kind !== 'scale') {
        const values = question.options.map((option) => option.value);
        expect(new Set(values).size, question.id).toBe(values.length);
      }
    }
  });

  it('asks PHQ-2 in its standard words, with its four answers', () => {
    const interest = questionById('phq2_interest');
    const down = questionById('phq2_down');
    expect(interest?.prompt).toContain('little interest or pleasure in doing things');
    expect(down?.prompt).toContain('down, depressed, or hopeless');
    for (const question of [interest, down]) {
      expect(question?.kind === 'choice' && question.options.map((option) => option.label)).toEqual([
        'Not at all',
        'Several days',
        'More than half the days',
        'Nearly every day',
      ]);
    }
  });

  it('asks pain on a scale of 0 to 10 and medicines as yes, some or no', () => {
    expect(questionById('pain')).toMatchObject({ kind: 'scale', min: 0, max: 10 });
    const medicines = questionById('medicines');
    expect(medicines?.kind === 'choice' && medicines.options.map((option) => option.value)).toEqual(
      expect.arrayContaining(['yes', 'partly', 'no']),
    );
    expect(questionById('nothing')).toBeUndefined();
  });
});

describe('the flow', () => {
  it('starts with mood and, with no pain, no symptoms and a negative screen, asks seven questions', () => {
    expect(nextQuestion([])?.id).toBe('mood');
    const { asked, answers } = walk(calm);
    expect(asked).toEqual(['mood', 'sleep', 'pain', 'symptoms', 'medicines', 'phq2_interest', 'phq2_down']);
    expect(isComplete(answers)).toBe(true);
    expect(isComplete(answers.slice(0, -1))).toBe(false);
  });

  it('asks where it hurts only when pain is above 0, right after the pain question', () => {
    for (const pain of [1, 5, 10]) {
      const { asked } = walk({ ...calm, pain });
      expect(asked.slice(2, 4)).toEqual(['pain', 'pain_location']);
    }
    expect(walk({ ...calm, pain: 0 }).asked).not.toContain('pain_location');
  });

  it("asks how much symptoms get in the way unless the answer was 'None of these'", () => {
    const { asked } = walk({ ...calm, symptoms: ['cough', 'fever'] });
    expect(asked.slice(3, 5)).toEqual(['symptoms', 'symptom_impact']);
    expect(walk({ ...calm, symptoms: ['none'] }).asked).not.toContain('symptom_impact');
  });

  it('follows up gently when the PHQ-2 total is 3 or more, for every pair of answers', () => {
    PHQ2.forEach((interest, interestScore) => {
      PHQ2.forEach((down, downScore) => {
        const { asked } = walk({ ...calm, phq2_interest: interest, phq2_down: down });
        expect(asked.includes('phq2_follow_up'), `${interest} + ${down}`).toBe(
          interestScore + downScore >= 3,
        );
        if (interestScore + downScore >= 3) expect(asked.at(-1)).toBe('phq2_follow_up');
      });
    });
  });

  it("the follow-up suggests talking to a doctor and gives the US crisis line's number", () => {
    const followUp = questionById('phq2_follow_up');
    expect(followUp?.prompt).toContain('doctor');
    expect(followUp?.note).toBe(CRISIS_NOTE);
    expect(CRISIS_NOTE).toContain('988');
    expect(CRISIS_NOTE).toContain('911');
    // Only that question carries the note.
    expect(CHECK_IN_QUESTIONS.filter((question) => question.note !== null).map((q) => q.id)).toEqual([
      'phq2_follow_up',
    ]);
  });

  it('takes every branch at once: pain, symptoms and a positive screen ask all ten questions', () => {
    const { asked, answers } = walk({
      ...calm,
      pain: 6,
      symptoms: ['headache'],
      phq2_interest: 'nearly_every_day',
      phq2_down: 'several_days',
    });
    expect(asked).toEqual([...CHECK_IN_QUESTION_IDS]);
    expect(isComplete(answers)).toBe(true);
  });
});

describe('answers', () => {
  const refused = (questionId: string, answer: unknown) => {
    const check = validateAnswer(questionId, answer);
    return check.ok ? null : check.message;
  };

  it('takes an option of a choice, and nothing else', () => {
    expect(validateAnswer('mood', 'okay')).toEqual({ ok: true, answer: 'okay' });
    for (const bad of ['fine', '', 3, null, undefined, ['good'], { value: 'good' }]) {
      expect(refused('mood', bad), JSON.stringify(bad)).toBe(CHECK_IN_MESSAGES.chooseOne);
    }
  });

  it('takes a whole number from 0 to 10 for pain', () => {
    for (const pain of [0, 7, 10]) expect(validateAnswer('pain', pain)).toEqual({ ok: true, answer: pain });
    for (const bad of [-1, 11, 2.5, '5', null, Number.NaN, [3]]) {
      expect(refused('pain', bad), String(bad)).toBe(CHECK_IN_MESSAGES.scale(0, 10));
    }
  });

  it("takes one or more symptoms, or 'None of these' alone, in the options' order", () => {
    expect(validateAnswer('symptoms', ['fever', 'cough'])).toEqual({ ok: true, answer: ['cough', 'fever'] });
    expect(validateAnswer('symptoms', ['none'])).toEqual({ ok: true, answer: ['none'] });
    expect(refused('symptoms', ['none', 'cough'])).toBe(CHECK_IN_MESSAGES.exclusive('None of these'));
    expect(refused('symptoms', [])).toBe(CHECK_IN_MESSAGES.chooseSome);
    expect(refused('symptoms', ['cough', 'cough'])).toBe(CHECK_IN_MESSAGES.chooseOnce);
    expect(refused('symptoms', ['sneezing'])).toBe(CHECK_IN_MESSAGES.chooseSome);
    expect(refused('symptoms', 'cough')).toBe(CHECK_IN_MESSAGES.chooseSome);
    // Where it hurts has no 'none': any places together.
    expect(validateAnswer('pain_location', ['back', 'head'])).toEqual({ ok: true, answer: ['head', 'back'] });
  });

  it('refuses a question the check-in does not have', () => {
    expect(refused('weight', 80)).toBe(CHECK_IN_MESSAGES.questionUnknown);
  });

  it('knows the same answer, whatever order the options were sent in', () => {
    const first = validateAnswer('symptoms', ['nausea', 'cough']);
    const again = validateAnswer('symptoms', ['cough', 'nausea']);
    if (!first.ok || !again.ok) throw new Error('refused');
    expect(sameAnswer(first.answer, again.answer)).toBe(true);
    expect(sameAnswer(first.answer, ['cough'])).toBe(false);
    expect(sameAnswer(3, 3)).toBe(true);
    expect(sameAnswer(3, '3')).toBe(false);
  });
});

describe('the conversation and the charts', () => {
  it('shows each answer in words, in the order given', () => {
    const answers: CheckInEntry[] = [
      { question_id: 'mood', answer: 'not_so_good' },
      { question_id: 'sleep', answer: '4' },
      { question_id: 'pain', answer: 3 },
      { question_id: 'pain_location', answer: ['head', 'back'] },
    ];
    expect(historyOf(answers)).toEqual([
      {
        question_id: 'mood',
        prompt: 'How are you feeling today?',
        answer: 'not_so_good',
        answer_text: 'Not so good',
      },
      {
        question_id: 'sleep',
        prompt: 'About how many hours did you sleep last night?',
        answer: '4',
        answer_text: '4 hours or less',
      },
      {
        question_id: 'pain',
        prompt: 'How much pain are you in right now?',
        answer: 3,
        answer_text: '3 out of 10',
      },
      {
        question_id: 'pain_location',
        prompt: "I'm sorry you're hurting. Where is the pain?",
        answer: ['head', 'back'],
        answer_text: 'Head, Back',
      },
    ]);
    const mood = questionById('mood');
    if (!mood) throw new Error('no mood question');
    expect(answerText(mood, 'very_good')).toBe('Very good');
  });

  it("gives the day's mood (1-5), hours of sleep, pain and PHQ-2 total", () => {
    const { answers } = walk({
      ...calm,
      mood: 'very_good',
      sleep: '9',
      pain: 4,
      phq2_interest: 'more_than_half',
      phq2_down: 'several_days',
    });
    expect(dailySummary('2026-11-20', 'completed', answers)).toEqual({
      day: '2026-11-20',
      status: 'completed',
      mood: 5,
      sleep_hours: 9,
      pain: 4,
      phq2_score: 3,
    });
    const moods = ['bad', 'not_so_good', 'okay', 'good', 'very_good'].map(
      (mood) => dailySummary('2026-11-20', 'in_progress', [{ question_id: 'mood', answer: mood }]).mood,
    );
    expect(moods).toEqual([1, 2, 3, 4, 5]);
  });

  it('leaves out what was not answered: PHQ-2 needs both of its questions', () => {
    expect(dailySummary('2026-11-20', null, [])).toEqual({
      day: '2026-11-20',
      status: null,
      mood: null,
      sleep_hours: null,
      pain: null,
      phq2_score: null,
    });
    const half = walk(calm).answers.slice(0, -1);
    expect(dailySummary('2026-11-20', 'skipped', half)).toMatchObject({ pain: 0, phq2_score: null });
  });

  it('takes a real calendar date as the day', () => {
    expect(checkInDaySchema.safeParse('2026-11-20').success).toBe(true);
    for (const bad of ['2026-02-30', '2026-11-20T00:00:00Z', 'today', '', 20261120]) {
      const result = checkInDaySchema.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(CHECK_IN_MESSAGES.dayInvalid);
    }
  });
});

describe('steps (the rules the device and the server both apply)', () => {
  const fresh: CheckInState = { id: 'day-id', day: '2026-11-24', status: 'in_progress', answers: [] };
  const answerStep = (question_id: CheckInQuestionId, answer: CheckInAnswer): CheckInStep => ({
    action: 'answer',
    question_id,
    answer,
  });
  const after = (...steps: CheckInStep[]) =>
    steps.reduce<CheckInState>((state, step) => {
      const outcome = applyCheckInStep(state, step);
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.state;
    }, fresh);

  it('takes the next question only; the same answer again changes nothing; another answer is refused', () => {
    const moodGood = after(answerStep('mood', 'good'));
    expect(moodGood.answers).toEqual([{ question_id: 'mood', answer: 'good' }]);
    expect(applyCheckInStep(moodGood, answerStep('mood', 'good'))).toEqual({
      ok: true,
      state: moodGood,
      changed: false,
    });
    expect(applyCheckInStep(moodGood, answerStep('mood', 'bad'))).toEqual({
      ok: false,
      message: CHECK_IN_MESSAGES.answeredDifferently,
    });
    expect(applyCheckInStep(moodGood, answerStep('pain', 3))).toEqual({
      ok: false,
      message: CHECK_IN_MESSAGES.notNextQuestion('About how many hours did you sleep last night?'),
    });
  });

  it('completes after the last question; a complete check-in takes no more answers and stays complete on skip', () => {
    const done = after(...walk(calm).answers.map((entry) => answerStep(entry.question_id, entry.answer)));
    expect(done.status).toBe('completed');
    expect(questionToAsk(done)).toBeNull();
    expect(applyCheckInStep(done, { action: 'skip' })).toMatchObject({ ok: true, changed: false });
    expect(applyCheckInStep(done, answerStep('phq2_follow_up', 'yes'))).toEqual({
      ok: false,
      message: CHECK_IN_MESSAGES.alreadyComplete,
    });
  });

  it('a skip closes the day until a reset, which starts it again from the first question', () => {
    const skipped = after(answerStep('mood', 'okay'), { action: 'skip' });
    expect(skipped.status).toBe('skipped');
    expect(questionToAsk(skipped)).toBeNull();
    expect(applyCheckInStep(skipped, answerStep('sleep', '6'))).toEqual({
      ok: false,
      message: CHECK_IN_MESSAGES.skipped,
    });
    const again = after(answerStep('mood', 'okay'), { action: 'skip' }, { action: 'reset' });
    expect(again).toMatchObject({ status: 'in_progress', answers: [] });
    expect(questionToAsk(again)?.id).toBe('mood');
    expect(applyCheckInStep(fresh, { action: 'reset' })).toMatchObject({ ok: true, changed: false });
  });

  it('names a day by patient and day, the same on every device, whatever the case of the patient id', async () => {
    const patient = '7d1f1c1e-0000-4000-8000-000000000001';
    const id = await checkInId(patient, '2026-11-24');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await checkInId(patient.toUpperCase(), '2026-11-24')).toBe(id);
    expect(await checkInId(patient, '2026-11-25')).not.toBe(id);
  });

  it('reads a body as its step, the answer in its stored form', () => {
    const body = (fields: Record<string, unknown>) =>
      stepOfBody(checkInStepBodySchema.parse({ day: '2026-11-24', ...fields }));
    expect(body({ action: 'skip' })).toEqual({ action: 'skip' });
    expect(body({ question_id: 'symptoms', answer: ['fever', 'cough'] })).toEqual(
      answerStep('symptoms', ['cough', 'fever']),
    );
    expect(checkInStepBodySchema.safeParse({ day: '2026-11-24' }).success).toBe(false);
    expect(checkInStepBodySchema.safeParse({ day: '2026-11-24', action: 'finish' }).success).toBe(false);
  });
});

describe('the mood screening, left out for a caregiver the patient does not share it with', () => {
  const day: CheckInEntry[] = [
    { question_id: 'mood', answer: 'bad' },
    { question_id: 'medicines', answer: 'yes' },
    { question_id: 'phq2_interest', answer: 'nearly_every_day' },
    { question_id: 'phq2_down', answer: 'more_than_half' },
    { question_id: 'phq2_follow_up', answer: 'yes' },
  ];

  it('is the PHQ-2 questions and their follow-up, every question of the catalogue starting phq2', () => {
    expect([...MOOD_SCREENING_QUESTION_IDS]).toEqual(
      CHECK_IN_QUESTION_IDS.filter((id) => id.startsWith('phq2')),
    );
  });

  it('keeps every other answer, in order, and leaves no PHQ-2 total', () => {
    const kept = withoutMoodScreening(day);
    expect(kept.map((entry) => entry.question_id)).toEqual(['mood', 'medicines']);
    expect(dailySummary('2026-03-01', 'completed', day).phq2_score).toBe(5);
    expect(dailySummary('2026-03-01', 'completed', kept).phq2_score).toBeNull();
  });

  it('leaves a record’s other fields as they are, and anything not a list of answers alone', () => {
    const record = { id: 'x', status: 'completed', answers: day, version: 3 };
    expect(recordWithoutMoodScreening(record)).toEqual({ ...record, answers: day.slice(0, 2) });
    expect(record.answers).toHaveLength(5); // not changed in place
    expect(recordWithoutMoodScreening({ id: 'y', answers: 'odd' })).toEqual({ id: 'y', answers: 'odd' });
  });
});
