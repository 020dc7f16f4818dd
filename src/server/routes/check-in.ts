import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHECK_IN_MESSAGES as MESSAGES,
  CHECK_IN_STATUSES,
  checkInDaySchema,
  checkInQuestionSchema,
  dailySummary,
  historyOf,
  isMoodScreeningQuestion,
  withoutMoodScreening,
  type CheckInEntry,
} from '../../domain/check-in';
import { checkInStepBodySchema } from '../../domain/check-in-steps';
import { errorBodySchema } from '../../domain/errors';
import { patientForCall } from '../services/access';
import {
  CHECK_IN_READ as READ,
  checkInsBetween,
  readCheckIn,
  runCheckInStep,
  stepAnswerOf,
} from '../services/check-in';
import { dayWithinReach, daysUntil, utcDay } from '../services/check-in-days';
import { seesMoodScreening } from '../services/mood-screening';
import { restContext } from '../services/record-mutations';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// /api/interactions (src/domain/README.md): the daily health check-in. init reads the day's
// conversation, respond answers its next question or skips it, reset starts it again, summary gives the
// charts their days. The patient answers their own check-in; a caregiver may read a linked patient's with
// Read Medical History (a check-in is the patient's own account of their health, the closest of the
// catalogue's records; there is no permission of its own) and never answers for them. Such a caregiver
// gets the mood screening (the PHQ-2 answers, their total, the question about them the patient is on) only
// while the patient shares it (services/mood-screening.ts).

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
const resetBodySchema = z.object({
  day: reachableDay,
  interaction_id: z.uuid({ error: MESSAGES.notFound }).optional(),
  patient_id: z.uuid({ error: MESSAGES.patientInvalid }).optional(),
});
/** A step's body; the reach of days is judged by runCheckInStep, for queued steps too. */
const respondBodySchema = checkInStepBodySchema;

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
  /** The day's record as the device's replica keeps it (absent while nothing of it is stored). */
  data: z.record(z.string(), z.unknown()).optional(),
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
      const step = stepAnswerOf(state, undefined);
      if (await seesMoodScreening(app.db, request.auth, patientId))
        return {
          session: { day: state.day, status: state.status },
          history: historyOf(state.answers),
          ...step,
        };
      // Neither the answers nor the question the patient is on: a follow-up asked would tell the score.
      const asked = step.next_question;
      return {
        session: { day: state.day, status: state.status },
        history: historyOf(withoutMoodScreening(state.answers)),
        ...step,
        next_question: asked && isMoodScreeningQuestion(asked.id) ? null : asked,
      };
    },
  );

  app.post(
    '/respond',
    {
      schema: {
        tags: ['check-in'],
        headers: mutationHeadersSchema,
        body: respondBodySchema,
        response: { 200: stepResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) =>
        runCheckInStep(restContext(tx, request.auth), undefined, request.body),
      ),
  );

  app.post(
    '/reset',
    {
      schema: {
        tags: ['check-in'],
        headers: mutationHeadersSchema,
        body: resetBodySchema,
        response: { 200: stepResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) =>
        runCheckInStep(restContext(tx, request.auth), undefined, { ...request.body, action: 'reset' }),
      ),
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
      const shown = (await seesMoodScreening(app.db, request.auth, patientId))
        ? (answers: CheckInEntry[]) => answers
        : withoutMoodScreening;
      return {
        until,
        days: days.map((day) => {
          const state = stored.get(day);
          // Without the screening's answers there is no PHQ-2 total either.
          return dailySummary(day, state?.status ?? null, shown(state?.answers ?? []));
        }),
      };
    },
  );
};
