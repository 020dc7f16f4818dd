import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import {
  APPOINTMENT_PERMISSIONS as PERMISSIONS,
  appointmentIdParamsSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentResponseSchema,
} from '../../domain/appointments';
import { errorBodySchema } from '../../domain/errors';
import { records } from '../db/schema';
import { recordDelivery } from '../services/care-activity';
import { patientForCall } from '../services/access';
import { appointmentFor, asAppointment } from '../services/appointment-mutations';
import { accessChecks } from '../services/record-mutations';
import { wireColumns } from '../services/records';
import { typedAnswer } from './typed-answer';

// /api/appointments, on the synced-records engine. The mutations live in
// services/appointment-mutations.ts, shared with the batched replay (POST /api/sync/push).
// Their checks run inside the idempotent work; a retry of a change that already succeeded gets the stored
// answer only while the caller keeps the access it needed, else the refusal a fresh call would get.
// A caregiver who may change but not read a patient's appointments gets back only id and version.

const RESOURCE = 'appointments';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export const appointmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  // The list's two statements (with and without a start date), built once and prepared.
  const listQuery = (fromStartDate: boolean) =>
    app.db
      .select(wireColumns)
      .from(records)
      .where(
        and(
          eq(records.resource, RESOURCE),
          eq(records.patientId, sql.placeholder('patientId')),
          isNull(records.deletedAt),
          fromStartDate
            ? gte(sql`${records.data}->>'appointment_date'`, sql.placeholder('startDate'))
            : undefined,
        ),
      )
      .orderBy(asc(sql`${records.data}->>'appointment_date'`))
      .prepare(fromStartDate ? 'appointments_list_from' : 'appointments_list');
  const listAll = listQuery(false);
  const listFrom = listQuery(true);

  app.get(
    '/',
    {
      schema: {
        tags: ['appointments'],
        querystring: appointmentListQuerySchema,
        response: { 200: appointmentListResponseSchema, ...errors },
      },
      ...typedAnswer, // rows through asAppointment
    },
    async (request) => {
      const patientId = await patientForCall(app.db, request.auth, request.query.patient, PERMISSIONS.read);
      const { startDate } = request.query;
      const rows = startDate
        ? await listFrom.execute({ patientId, startDate })
        : await listAll.execute({ patientId });
      // A caregiver reading the patient's appointments is shown to the patient (services/README.md).
      await recordDelivery(app.db, request.auth, { patientId, resource: RESOURCE, count: rows.length });
      return { success: true as const, data: rows.map(asAppointment) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['appointments'],
        params: appointmentIdParamsSchema,
        response: { 200: appointmentResponseSchema, ...errors },
      },
      ...typedAnswer, // the row through asAppointment
    },
    async (request) => {
      const row = await appointmentFor(
        app.db,
        accessChecks(request.auth, { cached: false }),
        request.params.id,
        PERMISSIONS.read,
      );
      await recordDelivery(app.db, request.auth, { patientId: row.patientId, resource: RESOURCE, count: 1 });
      return { success: true as const, data: asAppointment(row), merged: false };
    },
  );
};
