import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import {
  doseMarkBodySchema,
  doseMarkResponseSchema,
  scheduleQuerySchema,
  type DoseMark,
} from '../../domain/dose-marks';
import { indexMarks, scheduleForDay } from '../../domain/medicine-schedule';
import {
  PRESCRIPTION_MESSAGES as MESSAGES,
  PRESCRIPTION_PERMISSIONS as PERMISSIONS,
  comparePrescriptions,
  isCurrentOrUpcoming,
  matchesPrescriptionFilter,
  prescriptionFilterQuerySchema,
  prescriptionListQuerySchema,
  prescriptionListResponseSchema,
  prescriptionResponseSchema,
  prescriptionStatusBodySchema,
  type Prescription,
} from '../../domain/prescriptions';
import { prescriptionOcrBodySchema, prescriptionOcrResponseSchema } from '../../domain/prescription-ocr';
import { records } from '../db/schema';
import { patientForCall } from '../services/access';
import { recordDelivery } from '../services/care-activity';
import { asDoseMark, markDose } from '../services/dose-mark-mutations';
import { asPrescription, updatePrescription } from '../services/prescription-mutations';
import { readLabelFile } from '../services/prescription-ocr';
import { restContext } from '../services/record-mutations';
import { wireColumns } from '../services/records';
import type { Queryable } from '../services/transaction';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';
import { typedAnswer } from './typed-answer';

// /api/prescriptions (src/domain/README.md) on the synced-records engine: add, update, status,
// delete, the 'future' list and the filtered list, the day's medicine schedule and marking a dose. The
// mutations live in services/prescription-mutations.ts and dose-mark-mutations.ts, shared with the
// batched replay (POST /api/sync/push). Devices read their replica; these reads serve other clients.

const RESOURCE = 'prescriptions';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** The patient's live records of a resource (a patient's prescriptions are tens, not thousands). */
function liveRecords(db: Queryable, resource: string, patientId: string, extra?: ReturnType<typeof sql>) {
  return db
    .select(wireColumns)
    .from(records)
    .where(
      and(eq(records.resource, resource), eq(records.patientId, patientId), isNull(records.deletedAt), extra),
    );
}

const scheduleEntrySchema = z.object({
  schedule_id: z.string(),
  medicine_name: z.string(),
  label: z.string(),
  form: z.string(),
  directions: z.string(),
  start_date: z.string(),
  end_date: z.string().nullable(),
  times: z.array(z.string()),
  time_zone: z.string(),
  is_taken: z.boolean(),
  doses: z.array(
    z.object({
      time: z.string(),
      due_at: z.string(),
      is_taken: z.boolean().nullable(),
      state: z.enum(['taken', 'not-taken', 'missed', 'due', 'upcoming', 'before-added']),
      marked_by: z.string().nullable(),
      marked_by_name: z.string().nullable(),
      marked_at: z.string().nullable(),
    }),
  ),
});
const scheduleResponseSchema = z.object({
  success: z.literal(true),
  date: z.string(),
  data: z.array(scheduleEntrySchema),
});

export const prescriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  const prescriptionsOf = async (patientId: string): Promise<Prescription[]> =>
    (await liveRecords(app.db, RESOURCE, patientId)).map(asPrescription);

  app.get(
    '/',
    {
      schema: {
        tags: ['prescriptions'],
        querystring: prescriptionListQuerySchema,
        response: { 200: prescriptionListResponseSchema, ...errors },
      },
      ...typedAnswer,
    },
    async (request) => {
      const { patient, mode, today } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, PERMISSIONS.read);
      const day = today ?? new Date().toISOString().slice(0, 10);
      const data = (await prescriptionsOf(patientId))
        .filter((prescription) => mode === 'all' || isCurrentOrUpcoming(prescription, day))
        .sort(comparePrescriptions);
      await recordDelivery(app.db, request.auth, { patientId, resource: RESOURCE, count: data.length });
      return { success: true as const, data };
    },
  );

  app.get(
    '/filter',
    {
      schema: {
        tags: ['prescriptions'],
        querystring: prescriptionFilterQuerySchema,
        response: { 200: prescriptionListResponseSchema, ...errors },
      },
      ...typedAnswer,
    },
    async (request) => {
      const { patient, ...query } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, PERMISSIONS.read);
      const given = (value: string | undefined) => (value && value !== 'all' ? value : undefined);
      const filter = {
        status: given(query.status) as Prescription['status'] | undefined,
        doctor: given(query.doctor),
        startDate: given(query.startDate),
        endDate: given(query.endDate),
      };
      const data = (await prescriptionsOf(patientId))
        .filter((prescription) => matchesPrescriptionFilter(prescription, filter))
        .sort(comparePrescriptions);
      await recordDelivery(app.db, request.auth, { patientId, resource: RESOURCE, count: data.length });
      return { success: true as const, data };
    },
  );

  app.get(
    '/schedule',
    {
      schema: {
        tags: ['prescriptions'],
        querystring: scheduleQuerySchema,
        response: { 200: scheduleResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { date, patient } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, PERMISSIONS.read);
      const [prescriptions, markRows] = await Promise.all([
        prescriptionsOf(patientId),
        liveRecords(app.db, 'dose_marks', patientId, sql`${records.data}->>'date' = ${date}`),
      ]);
      const marks = indexMarks(markRows.map((row): DoseMark => asDoseMark(row)));
      return { success: true as const, date, data: scheduleForDay(date, prescriptions, marks) };
    },
  );

  app.post(
    '/ocr',
    {
      schema: {
        tags: ['prescriptions'],
        body: prescriptionOcrBodySchema,
        response: {
          200: prescriptionOcrResponseSchema,
          ...errors,
          413: errorBodySchema,
          422: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      // Reading a label is the first step of adding (or correcting) a prescription for the patient.
      const patientId = await patientForCall(app.db, request.auth, request.body.patient, PERMISSIONS.add);
      const { message, data } = await readLabelFile(
        { db: app.db, storage: app.storage, ocr: app.ocr },
        { key: request.body.s3Key, callerUserId: request.auth.userId, patientId },
      );
      return { success: true as const, message, data };
    },
  );

  app.post(
    '/schedule/taken',
    {
      schema: {
        tags: ['prescriptions'],
        headers: mutationHeadersSchema,
        body: doseMarkBodySchema,
        response: { 200: doseMarkResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) => markDose(restContext(tx, request.auth), request.body)),
  );

  app.post(
    '/status',
    {
      schema: {
        tags: ['prescriptions'],
        headers: mutationHeadersSchema,
        body: prescriptionStatusBodySchema,
        response: { 200: prescriptionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id, ...change } = request.body;
      return sendIdempotent(request, reply, (tx) =>
        updatePrescription(restContext(tx, request.auth), id, change, MESSAGES.statusChanged),
      );
    },
  );
};
