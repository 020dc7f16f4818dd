import { z } from 'zod';
import { isIsoDate } from './clock';

// The daily health check-in (README.md beside this file): a short conversation of
// fixed questions (mood, sleep, pain, symptoms, medicines, and the PHQ-2 depression screen), some asked
// only after certain answers. A check-in belongs to one patient and one calendar day: the device's local
// date, which the server accepts when it is near its own (see dayWithinReach). Answers are kept in the
// order given; only the next question may be answered, and the same answer sent again changes nothing,
// so a device may send its queued answers as often as it needs to.

export const CHECK_IN_MESSAGES = {
  dayInvalid: 'day must be a date (YYYY-MM-DD).',
  dayOutOfReach:
    "This day is too far from today. A check-in is for today's date on your device (answers sent late by a device that was offline are taken for up to 7 days).",
  questionUnknown: 'question_id must be one of the questions of the check-in.',
  answerOrSkip: 'Send an answer (question_id and answer) or action "skip", not both.',
  notNextQuestion: (next: string) =>
    `This is not the question the check-in is on. The next question is: "${next}"`,
  answeredDifferently: 'This question was already answered. Reset the check-in to change your answers.',
  alreadyComplete: "This day's check-in is already complete. Reset it to answer again.",
  skipped: "This day's check-in was skipped. Reset it to answer again.",
  notFound: 'Check-in not found.',
  patientOnly: 'Only the patient can answer or reset their own check-in.',
  stepsOnly: 'A check-in changes only by answering, skipping or resetting it.',
  daysInvalid: 'days must be a whole number from 1 to 90.',
  patientInvalid: 'patient must be a patient id (a UUID).',
  chooseOne: 'Please choose one of the answers.',
  chooseSome: 'Please choose at least one answer.',
  chooseOnce: 'Each answer may be chosen only once.',
  exclusive: (label: string) => `"${label}" cannot be chosen together with other answers.`,
  scale: (min: number, max: number) => `Please answer with a whole number from ${min} to ${max}.`,
} as const;

export const CHECK_IN_TEXTS = {
  completed: 'Thank you for checking in today. Take care of yourself.',
  skipped: 'No problem. You can check in again tomorrow.',
} as const;

export const CHECK_IN_QUESTION_IDS = [
  'mood',
  'sleep',
  'pain',
  'pain_location',
  'symptoms',
  'symptom_impact',
  'medicines',
  'phq2_interest',
  'phq2_down',
  'phq2_follow_up',
] as const;
export type CheckInQuestionId = (typeof CHECK_IN_QUESTION_IDS)[number];

const optionSchema = z.object({ value: z.string(), label: z.string() });
const questionBase = { id: z.enum(CHECK_IN_QUESTION_IDS), prompt: z.string(), note: z.string().nullable() };

/** A question as the API sends it (next_question), and as the catalogue holds it. */
export const checkInQuestionSchema = z.discriminatedUnion('kind', [
  z.object({ ...questionBase, kind: z.literal('choice'), options: z.array(optionSchema) }),
  z.object({
    ...questionBase,
    kind: z.literal('scale'),
    min: z.number(),
    max: z.number(),
    min_label: z.string(),
    max_label: z.string(),
  }),
  z.object({
    ...questionBase,
    kind: z.literal('multi_choice'),
    options: z.array(optionSchema),
    /** An option that stands alone ('None of these'). */
    exclusive_option: z.string().nullable(),
  }),
]);
export type CheckInQuestion = z.infer<typeof checkInQuestionSchema>;

/** An answer: an option's value, a number on the scale, or the chosen options' values. */
export type CheckInAnswer = string | number | string[];
export type CheckInEntry = { question_id: CheckInQuestionId; answer: CheckInAnswer };
export const CHECK_IN_STATUSES = ['in_progress', 'completed', 'skipped'] as const;
export type CheckInStatus = (typeof CHECK_IN_STATUSES)[number];

type Option = { value: string; label: string };
/** Options from { value: label } (string keys keep their order). */
const optionsOf = (labels: Record<string, string>): Option[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/**
 * The questions of the mood screening (PHQ-2 and its follow-up). A caregiver who may read the check-ins
 * sees their answers, and the score made from them, only when the patient shares them (the medical
 * history's share_mood_screening); the patient always sees their own (README.md beside this file).
 */
export const MOOD_SCREENING_QUESTION_IDS: readonly CheckInQuestionId[] = [
  'phq2_interest',
  'phq2_down',
  'phq2_follow_up',
];
export const isMoodScreeningQuestion = (id: string): boolean =>
  (MOOD_SCREENING_QUESTION_IDS as readonly string[]).includes(id);

/** The patient's choice, word for word, as the switch that turns the sharing on says it. */
export const MOOD_SCREENING_SHARING_LABEL =
  'Share my mood screening (PHQ-2) answers with caregivers who can read my medical history';

/** The answers without the mood screening's: what a caregiver gets while the patient does not share it. */
export const withoutMoodScreening = <Entry extends { question_id: string }>(
  answers: readonly Entry[],
): Entry[] => answers.filter((entry) => !isMoodScreeningQuestion(entry.question_id));

/**
 * A check-in record (as the pull carries it) without the mood screening's answers; anything that is not
 * a list of answers is left as it is.
 */
export function recordWithoutMoodScreening<Data extends Record<string, unknown>>(data: Data): Data {
  const { answers } = data;
  if (!Array.isArray(answers)) return data;
  const kept = answers.filter(
    (entry: unknown) =>
      !(
        typeof entry === 'object' &&
        entry !== null &&
        isMoodScreeningQuestion(String((entry as { question_id?: unknown }).question_id))
      ),
  );
  return { ...data, answers: kept };
}

/** PHQ-2's answers and their scores (Kroenke, Spitzer and Williams, 2003). */
const PHQ2_OPTIONS = optionsOf({
  not_at_all: 'Not at all',
  several_days: 'Several days',
  more_than_half: 'More than half the days',
  nearly_every_day: 'Nearly every day',
});
const PHQ2_SCORE: Record<string, number> = {
  not_at_all: 0,
  several_days: 1,
  more_than_half: 2,
  nearly_every_day: 3,
};
/** A PHQ-2 total of 3 or more is the usual cut-off for a positive screen. */
export const PHQ2_POSITIVE_SCORE = 3;
const MOOD_SCORE: Record<string, number> = { very_good: 5, good: 4, okay: 3, not_so_good: 2, bad: 1 };
const NONE = 'none';

export const CRISIS_NOTE =
  'If you are thinking about hurting yourself, or feel you cannot keep yourself safe, call or text 988 (the Suicide & Crisis Lifeline in the US) at any time. In an emergency, call 911.';

const noNote = { note: null };
/** The questions in the order they are asked. */
export const CHECK_IN_QUESTIONS: readonly CheckInQuestion[] = [
  {
    id: 'mood',
    kind: 'choice',
    prompt: 'How are you feeling today?',
    options: optionsOf({
      very_good: 'Very good',
      good: 'Good',
      okay: 'Okay',
      not_so_good: 'Not so good',
      bad: 'Bad',
    }),
    ...noNote,
  },
  {
    id: 'sleep',
    kind: 'choice',
    prompt: 'About how many hours did you sleep last night?',
    // The values are the hours the charts plot.
    options: [
      { value: '4', label: '4 hours or less' },
      ...['5', '6', '7', '8'].map((hours) => ({ value: hours, label: `${hours} hours` })),
      { value: '9', label: '9 hours or more' },
    ],
    ...noNote,
  },
  {
    id: 'pain',
    kind: 'scale',
    prompt: 'How much pain are you in right now?',
    min: 0,
    max: 10,
    min_label: 'No pain',
    max_label: 'The worst pain you can imagine',
    ...noNote,
  },
  {
    id: 'pain_location',
    kind: 'multi_choice',
    prompt: "I'm sorry you're hurting. Where is the pain?",
    options: optionsOf({
      head: 'Head',
      neck: 'Neck',
      chest: 'Chest',
      stomach: 'Stomach',
      back: 'Back',
      arms_hands: 'Arms or hands',
      legs_feet: 'Legs or feet',
      joints: 'Joints',
      other: 'Somewhere else',
    }),
    exclusive_option: null,
    ...noNote,
  },
  {
    id: 'symptoms',
    kind: 'multi_choice',
    prompt: 'Have you noticed any of these today? Choose all that apply.',
    options: optionsOf({
      headache: 'Headache',
      dizziness: 'Dizziness',
      nausea: 'Nausea',
      tiredness: 'Tiredness',
      shortness_of_breath: 'Shortness of breath',
      cough: 'Cough',
      fever: 'Fever or chills',
      [NONE]: 'None of these',
    }),
    exclusive_option: NONE,
    ...noNote,
  },
  {
    id: 'symptom_impact',
    kind: 'choice',
    prompt: 'How much are these getting in the way of your day?',
    options: optionsOf({ a_little: 'A little', somewhat: 'Somewhat', a_lot: 'A lot' }),
    ...noNote,
  },
  {
    id: 'medicines',
    kind: 'choice',
    prompt: 'Have you taken your medicines as planned today?',
    options: optionsOf({
      yes: 'Yes',
      partly: 'Some of them',
      no: 'No',
      no_medicines: "I don't take any medicines",
    }),
    ...noNote,
  },
  {
    id: 'phq2_interest',
    kind: 'choice',
    prompt: 'Over the last 2 weeks, how often have you had little interest or pleasure in doing things?',
    options: PHQ2_OPTIONS,
    ...noNote,
  },
  {
    id: 'phq2_down',
    kind: 'choice',
    prompt: 'Over the last 2 weeks, how often have you felt down, depressed, or hopeless?',
    options: PHQ2_OPTIONS,
    ...noNote,
  },
  {
    id: 'phq2_follow_up',
    kind: 'choice',
    prompt:
      'Thank you for telling me. Feeling this way for a while is worth talking about with your doctor, and help is there. Would you like to bring it up at your next visit?',
    options: optionsOf({ yes: 'Yes, I will', not_now: 'Not right now' }),
    note: CRISIS_NOTE,
  },
];

const QUESTIONS = new Map(CHECK_IN_QUESTIONS.map((question) => [question.id, question]));

export function questionById(id: string): CheckInQuestion | undefined {
  return QUESTIONS.get(id as CheckInQuestionId);
}

type AnswerMap = ReadonlyMap<CheckInQuestionId, CheckInAnswer>;
const answerMap = (answers: readonly CheckInEntry[]): AnswerMap =>
  new Map(answers.map((entry) => [entry.question_id, entry.answer]));

/** PHQ-2's total, once both of its questions are answered. */
function phq2Score(answers: AnswerMap): number | null {
  const interest = answers.get('phq2_interest');
  const down = answers.get('phq2_down');
  if (typeof interest !== 'string' || typeof down !== 'string') return null;
  return (PHQ2_SCORE[interest] ?? 0) + (PHQ2_SCORE[down] ?? 0);
}

/** Questions asked only after certain answers; every other question is always asked. */
const ASKED_WHEN: Partial<Record<CheckInQuestionId, (answers: AnswerMap) => boolean>> = {
  pain_location: (answers) => Number(answers.get('pain') ?? 0) > 0,
  symptom_impact: (answers) => {
    const symptoms = answers.get('symptoms');
    return Array.isArray(symptoms) && !symptoms.includes(NONE);
  },
  phq2_follow_up: (answers) => (phq2Score(answers) ?? 0) >= PHQ2_POSITIVE_SCORE,
};

/** The question to ask after these answers; null when the check-in is complete. */
export function nextQuestion(answers: readonly CheckInEntry[]): CheckInQuestion | null {
  const given = answerMap(answers);
  return (
    CHECK_IN_QUESTIONS.find(
      (question) => !given.has(question.id) && (ASKED_WHEN[question.id]?.(given) ?? true),
    ) ?? null
  );
}

export const isComplete = (answers: readonly CheckInEntry[]): boolean => nextQuestion(answers) === null;

const valuesOf = (options: readonly { value: string }[]) => options.map((option) => option.value);

/** The rule an answer to this question must meet; multi-choice answers come out in the options' order. */
export function answerSchemaFor(question: CheckInQuestion): z.ZodType<CheckInAnswer> {
  const { chooseOne, chooseSome, chooseOnce } = CHECK_IN_MESSAGES;
  if (question.kind === 'scale') {
    const message = CHECK_IN_MESSAGES.scale(question.min, question.max);
    return z.number({ error: message }).int(message).min(question.min, message).max(question.max, message);
  }
  const values = valuesOf(question.options);
  if (question.kind === 'choice')
    return z.string({ error: chooseOne }).refine((v) => values.includes(v), chooseOne);
  const exclusive = question.options.find((option) => option.value === question.exclusive_option);
  return z
    .array(
      z.string({ error: chooseSome }).refine((v) => values.includes(v), chooseSome),
      { error: chooseSome },
    )
    .min(1, chooseSome)
    .refine((chosen) => new Set(chosen).size === chosen.length, chooseOnce)
    .refine(
      (chosen) => !exclusive || chosen.length === 1 || !chosen.includes(exclusive.value),
      CHECK_IN_MESSAGES.exclusive(exclusive?.label ?? ''),
    )
    .transform((chosen) => values.filter((value) => chosen.includes(value)));
}

export type AnswerCheck = { ok: true; answer: CheckInAnswer } | { ok: false; message: string };

/** Checks an answer to a question of the catalogue; the answer comes back in its stored form. */
export function validateAnswer(questionId: string, answer: unknown): AnswerCheck {
  const question = questionById(questionId);
  if (!question) return { ok: false, message: CHECK_IN_MESSAGES.questionUnknown };
  const result = answerSchemaFor(question).safeParse(answer);
  if (result.success) return { ok: true, answer: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? CHECK_IN_MESSAGES.chooseOne };
}

/** Two answers in their stored form are the same answer. */
export const sameAnswer = (a: CheckInAnswer, b: CheckInAnswer): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** An answer as words, to show and read aloud ('Several days', 'Head, Back', '3 out of 10'). */
export function answerText(question: CheckInQuestion, answer: CheckInAnswer): string {
  if (question.kind === 'scale') return `${String(answer)} out of ${question.max}`;
  const labelOf = (value: string) =>
    question.options.find((option) => option.value === value)?.label ?? value;
  return (Array.isArray(answer) ? answer : [String(answer)]).map(labelOf).join(', ');
}

export type CheckInHistoryEntry = {
  question_id: CheckInQuestionId;
  prompt: string;
  answer: CheckInAnswer;
  answer_text: string;
};

/** The conversation so far, in the order it was answered. */
export function historyOf(answers: readonly CheckInEntry[]): CheckInHistoryEntry[] {
  return answers.flatMap((entry) => {
    const question = questionById(entry.question_id);
    if (!question) return [];
    const { prompt } = question;
    return [
      {
        question_id: entry.question_id,
        prompt,
        answer: entry.answer,
        answer_text: answerText(question, entry.answer),
      },
    ];
  });
}

/** One day of the charts: what was answered of the four charted questions (null when not answered). */
export type CheckInDaySummary = {
  day: string;
  status: CheckInStatus | null;
  /** 1 (Bad) to 5 (Very good). */
  mood: number | null;
  sleep_hours: number | null;
  pain: number | null;
  /** 0 to 6, once both PHQ-2 questions are answered. */
  phq2_score: number | null;
};

export function dailySummary(
  day: string,
  status: CheckInStatus | null,
  answers: readonly CheckInEntry[],
): CheckInDaySummary {
  const given = answerMap(answers);
  const mood = given.get('mood');
  const sleep = given.get('sleep');
  const pain = given.get('pain');
  return {
    day,
    status,
    mood: typeof mood === 'string' ? (MOOD_SCORE[mood] ?? null) : null,
    sleep_hours: typeof sleep === 'string' ? Number(sleep) : null,
    pain: typeof pain === 'number' ? pain : null,
    phq2_score: phq2Score(given),
  };
}

export const checkInDaySchema = z
  .string({ error: CHECK_IN_MESSAGES.dayInvalid })
  // abort: the rules added to it (the server's reach of days) need a real date.
  .refine(isIsoDate, { error: CHECK_IN_MESSAGES.dayInvalid, abort: true });

/**
 * A day's check-in as the replica keeps it (synced resource `check_ins`): its id is made from the patient
 * and the day (checkInId), so a device answering offline writes the record the server will hold.
 */
export type CheckInRecord = {
  id: string;
  patient_id: string;
  version: number;
  day: string;
  status: CheckInStatus;
  answers: CheckInEntry[];
  created_at?: string;
  updated_at?: string;
};
