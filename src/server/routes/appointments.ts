import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import {
  APPOINTMENT_MESSAGES as MESSAGES,
  APPOINTMENT_PERMISSIONS as PERMISSIONS,
  appointmentIdParamsSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentResponseSchema,
  createAppointmentBodySchema,
  deleteResponseSchema,
  updateAppointmentBodySchema,
  type Appointment,
} from '../../domain/appointments';
import { errorBodySchema } from '../../domain/errors';
import { records, uploads } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { mayActOn, patientForCall } from '../services/access';
import {
  createRecord,
  deleteRecord,
  findRecord,
  toWire,
  updateRecord,
  type RecordRow,
} from '../services/records';
import type { AuthUser } from '../plugins/auth';
import type { Database } from '../db/client';
import type { Permission } from '../../domain/permissions';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// /api/appointments (SPEC section 7), on the synced-records engine.

const RESOURCE = 'appointments';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const asAppointment = (row: RecordRow) => toWire(row) as Appointment;

/** An attachment must be a file the caller uploaded (so nobody can point a record at another's file). */
async function checkAttachment(db: Database, auth: AuthUser, key: string | null | undefined) {
  if (!key) return;
  const [owned] = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.ownerUserId, auth.userId)))
    .limit(1);
  if (!owned) throw new HttpError(400, MESSAGES.attachmentUnknown);
}

/** The appointment if it exists and the caller may do `permission` on it; 404 otherwise (never reveal it). */
async function appointmentFor(
  db: Database,
  auth: AuthUser,
  id: string,
  permission: Permission,
  allowDeleted = false,
) {
  const row = await findRecord(db, RESOURCE, id);
  if (!row || (row.deletedAt && !allowDeleted) || !(await mayActOn(db, auth, row.patientId, permission))) {
    throw new HttpError(404, MESSAGES.notFound);
  }
  return row;
}

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
    async (request) => ({
      success: true as const,
      data: asAppointment(await appointmentFor(app.db, request.auth, request.params.id, PERMISSIONS.read)),
      merged: false,
    }),
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
    async (request, reply) => {
      const {
        id,
        patient_id,
        base_version: _base,
        changed_at,
        caregiver_id: _claimed,
        ...fields
      } = request.body;
      // Checks run inside the idempotent work: a retry of a create that already succeeded gets the stored
      // answer even if, meanwhile, the caller lost the permission it had then.
      return sendIdempotent(request, reply, async (tx) => {
        const patientId = await patientForCall(tx, request.auth, patient_id, PERMISSIONS.add);
        await checkAttachment(tx, request.auth, fields.attachment_key);
        if (await findRecord(tx, RESOURCE, id)) throw new HttpError(409, MESSAGES.exists);
        const row = await createRecord(tx, {
          resource: RESOURCE,
          id,
          patientId,
          createdBy: request.auth.userId,
          fields: { ...fields, caregiver_id: request.auth.caregiverId }, // who booked it, from the token, not the body
          changedAt: changed_at,
        });
        return { statusCode: 201, body: { success: true, data: asAppointment(row), merged: false } };
      });
    },
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
    async (request, reply) => {
      const { base_version, changed_at, ...patch } = request.body;
      return sendIdempotent(request, reply, async (tx) => {
        await checkAttachment(tx, request.auth, patch.attachment_key);
        const current = await appointmentFor(tx, request.auth, request.params.id, PERMISSIONS.edit, true);
        const { row, merged } = await updateRecord(tx, current, {
          patch,
          baseVersion: base_version,
          changedAt: changed_at,
          deletedMessage: MESSAGES.deletedElsewhere,
        });
        return { statusCode: 200, body: { success: true, data: asAppointment(row), merged } };
      });
    },
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
      sendIdempotent(request, reply, async (tx) => {
        const current = await appointmentFor(tx, request.auth, request.params.id, PERMISSIONS.delete, true);
        const row = await deleteRecord(tx, current);
        return {
          statusCode: 200,
          body: {
            success: true,
            message: 'Appointment deleted',
            data: { id: row.id, version: row.version, deleted: true },
          },
        };
      }),
  );
};
