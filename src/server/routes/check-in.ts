import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHECK_IN_MESSAGES as MESSAGES,
  CHECK_IN_QUESTION_IDS,
  CHECK_IN_STATUSES,
  checkInDaySchema,
  checkInQuestionSchema,
  dailySummary,
  historyOf,
  nextQuestion,
  validateAnswer,
} from '../../domain/check-in';
import { errorBodySchema } from '../../domain/errors';
import type { Permission } from '../../domain/permissions';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { notAllowed, patientForCall, requireBetaPolicyAccepted } from '../services/access';
import {
  answerCheckIn,
  checkInId,
  checkInsBetween,
  readCheckIn,
  resetCheckIn,
  skipCheckIn,
  type CheckInState,
} from '../services/check-in';
import { dayWithinReach, daysUntil, utcDay } from '../services/check-in-days';
import type { Queryable } from '../services/transaction';

// /api/interactions (SPEC section 7; issue 14 point 5): the daily health check-in. init reads the day's
// conversation, respond answers its next question or skips it, reset starts it again, summary gives the
// charts their days. The patient answers their own check-in; a caregiver may read a linked patient's with
// Read Medical History (a check-in is the patient's own account of their health, the closest of the
// catalogue's records; there is no permission of its own) and never answers for them.

const READ: Permission = 'ReadMedicalHistory';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

const patientQuery = z.uuid({ error: MESSAGES.patientInvalid }).optional();
const reachableDay = checkInDaySchema.refine((day) => dayWithinReach(day), MESSAGES.dayOutOfReach);

const initQuerySchema = z.object({ day: reachableDay, patient: patientQuery });
const summaryQuerySchema = z.object({
  days: z.coerce
    .number({ error: MESSAGES.daysInvalid })
    .int(MESSAGES.daysInvalid)
    .min(1, MESSAGES.daysInvalid)
    .max(90, MESSAGES.daysInvalid)
    .default(30),
  /** The chart's last day (the device's today); the server's date when not given. */
  until: checkInDaySchema.optional(),
  patient: patientQuery,
});

/** Whose check-in and which day; the id, when sent, must be that check-in's (init answered it). */
const checkInCall = {
  day: reachableDay,
  interaction_id: z.uuid({ error: MESSAGES.notFound }).optional(),
  patient_id: z.uuid({ error: MESSAGES.patientInvalid }).optional(),
};
const respondBodySchema = z
  .object({
    ...checkInCall,
    question_id: z.enum(CHECK_IN_QUESTION_IDS, { error: MESSAGES.questionUnknown }).optional(),
    /** Checked against its question's rule below: the question says what an answer may be. */
    answer: z.unknown().optional(),
    action: z.literal('skip', { error: MESSAGES.answerOrSkip }).optional(),
  })
  .superRefine((body, context) => {
    const answers = body.question_id !== undefined || body.answer !== undefined;
    if (body.action === 'skip' ? answers : body.question_id === undefined) {
      context.addIssue({ code: 'custom', message: MESSAGES.answerOrSkip, path: ['question_id'] });
      return;
    }
    if (body.question_id === undefined) return;
    const check = validateAnswer(body.question_id, body.answer);
    if (!check.ok) context.addIssue({ code: 'custom', message: check.message, path: ['answer'] });
  });
const resetBodySchema = z.object(checkInCall);

const historyEntrySchema = z.object({
  question_id: z.string(),
  prompt: z.string(),
  answer: z.union([z.string(), z.number(), z.array(z.string())]),
  answer_text: z.string(),
});
const stepResponseSchema = z.object({
  completed: z.boolean(),
  status: z.enum(CHECK_IN_STATUSES),
  next_question: checkInQuestionSchema.nullable(),
  interaction_id: z.string(),
});
const initResponseSchema = stepResponseSchema.extend({
  session: z.object({ day: z.string(), status: z.enum(CHECK_IN_STATUSES) }),
  history: z.array(historyEntrySchema),
});
const summaryResponseSchema = z.object({
  until: z.string(),
  days: z.array(
    z.object({
      day: z.string(),
      status: z.enum(CHECK_IN_STATUSES).nullable(),
      mood: z.number().nullable(),
      sleep_hours: z.number().nullable(),
      pain: z.number().nullable(),
      phq2_score: z.number().nullable(),
    }),
  ),
});

/** What respond and reset answer: where the check-in stands. */
function stepOf(state: CheckInState) {
  return {
    completed: state.status === 'completed',
    status: state.status,
    // A skipped check-in asks nothing more until it is reset.
    next_question: state.status === 'in_progress' ? nextQuestion(state.answers) : null,
    interaction_id: state.id,
  };
}

/**
 * The patient whose check-in a write changes: only the patient themself (a caregiver may not answer
 * for them, whatever they were granted), with the beta policy accepted.
 */
async function answeringPatient(db: Queryable, auth: AuthUser, named: string | undefined): Promise<string> {
  if (!auth.patientId) throw new HttpError(403, MESSAGES.patientOnly);
  if (named !== undefined && named.toLowerCase() !== auth.patientId.toLowerCase()) throw notAllowed();
  await requireBetaPolicyAccepted(db, auth.userId);
  return auth.patientId;
}

/** 404 when the id sent is not this day's check-in of this patient (another's is not revealed). */
async function requireSameCheckIn(patientId: string, day: string, interactionId: string | undefined) {
  if (interactionId !== undefined && interactionId.toLowerCase() !== (await checkInId(patientId, day)))
    throw new HttpError(404, MESSAGES.notFound);
}

export const checkInRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/init',
    {
      schema: {
        tags: ['check-in'],
        querystring: initQuerySchema,
        response: { 200: initResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { day, patient } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, READ);
      const state = await readCheckIn(app.db, patientId, day);
      return {
        session: { day: state.day, status: state.status },
        history: historyOf(state.answers),
        ...stepOf(state),
      };
    },
  );

  app.post(
    '/respond',
    {
      schema: {
        tags: ['check-in'],
        body: respondBodySchema,
        response: { 200: stepResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { day, interaction_id, patient_id, question_id, answer, action } = request.body;
      const patientId = await answeringPatient(app.db, request.auth, patient_id);
      await requireSameCheckIn(patientId, day, interaction_id);
      if (action === 'skip') return stepOf(await skipCheckIn(app.db, patientId, day));
      // The body's rule has refused these already; checking again gives the answer in its stored form.
      if (question_id === undefined) throw new HttpError(400, MESSAGES.answerOrSkip);
      const checked = validateAnswer(question_id, answer);
      if (!checked.ok) throw new HttpError(400, checked.message);
      return stepOf(await answerCheckIn(app.db, patientId, day, question_id, checked.answer));
    },
  );

  app.post(
    '/reset',
    {
      schema: { tags: ['check-in'], body: resetBodySchema, response: { 200: stepResponseSchema, ...errors } },
    },
    async (request) => {
      const { day, interaction_id, patient_id } = request.body;
      const patientId = await answeringPatient(app.db, request.auth, patient_id);
      await requireSameCheckIn(patientId, day, interaction_id);
      return stepOf(await resetCheckIn(app.db, patientId, day));
    },
  );

  app.get(
    '/summary',
    {
      schema: {
        tags: ['check-in'],
        querystring: summaryQuerySchema,
        response: { 200: summaryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { days: count, until = utcDay(), patient } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, READ);
      const days = daysUntil(until, count);
      const stored = await checkInsBetween(app.db, patientId, days[0] ?? until, until);
      return {
        until,
        days: days.map((day) => {
          const state = stored.get(day);
          return dailySummary(day, state?.status ?? null, state?.answers ?? []);
        }),
      };
    },
  );
};
