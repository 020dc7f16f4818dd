import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import {
  APPOINTMENT_PERMISSIONS as PERMISSIONS,
  appointmentIdParamsSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentResponseSchema,
  createAppointmentBodySchema,
  deleteResponseSchema,
  updateAppointmentBodySchema,
} from '../../domain/appointments';
import { errorBodySchema } from '../../domain/errors';
import { records } from '../db/schema';
import { recordDelivery } from '../services/care-activity';
import { patientForCall } from '../services/access';
import {
  appointmentFor,
  asAppointment,
  createAppointment,
  deleteAppointment,
  updateAppointment,
} from '../services/appointment-mutations';
import { accessChecks, restContext } from '../services/record-mutations';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// /api/appointments (SPEC section 7), on the synced-records engine. The mutations live in
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

  app.get(
    '/',
    {
      schema: {
        tags: ['appointments'],
        querystring: appointmentListQuerySchema,
        response: { 200: appointmentListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = await patientForCall(app.db, request.auth, request.query.patient, PERMISSIONS.read);
      const conditions = [
        eq(records.resource, RESOURCE),
        eq(records.patientId, patientId),
        isNull(records.deletedAt),
      ];
      if (request.query.startDate)
        conditions.push(gte(sql`${records.data}->>'appointment_date'`, request.query.startDate));
      const rows = await app.db
        .select()
        .from(records)
        .where(and(...conditions))
        .orderBy(asc(sql`${records.data}->>'appointment_date'`));
      // A caregiver reading the patient's appointments is shown to the patient (issue 9, point 6).
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

  app.post(
    '/',
    {
      schema: {
        tags: ['appointments'],
        headers: mutationHeadersSchema,
        body: createAppointmentBodySchema,
        response: { 201: appointmentResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) => createAppointment(restContext(tx, request.auth), request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['appointments'],
        headers: mutationHeadersSchema,
        params: appointmentIdParamsSchema,
        body: updateAppointmentBodySchema,
        response: { 200: appointmentResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) =>
        updateAppointment(restContext(tx, request.auth), request.params.id, request.body),
      ),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['appointments'],
        headers: mutationHeadersSchema,
        params: appointmentIdParamsSchema,
        response: { 200: deleteResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, (tx) =>
        deleteAppointment(restContext(tx, request.auth), request.params.id),
      ),
  );
};
