import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  directoryDoctorSchema,
  directoryPharmacySchema,
  doctorSearchQuerySchema,
  DIRECTORY_MESSAGES,
  pageOf,
  pharmacySearchQuerySchema,
} from '../../domain/directory';
import {
  DOCTOR_PERMISSIONS,
  MY_DOCTOR_MESSAGES,
  myDoctorListQuerySchema,
  myDoctorListResponseSchema,
  myDoctorResponseSchema,
} from '../../domain/doctors';
import {
  myPharmacyListQuerySchema,
  myPharmacyListResponseSchema,
  PHARMACY_PERMISSIONS,
} from '../../domain/pharmacies';
import { errorBodySchema } from '../../domain/errors';
import { records, patients } from '../db/schema';
import { patientForCall } from '../services/access';
import { recordDelivery } from '../services/care-activity';
import { directoryDoctor, searchDoctors, searchPharmacies } from '../services/directory-search';
import { asMyDoctor, doctorEntryIdOf, removeDoctor } from '../services/doctor-mutations';
import { asMyPharmacy } from '../services/pharmacy-mutations';
import { restContext } from '../services/record-mutations';
import { wireColumns } from '../services/records';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';
import { typedAnswer } from './typed-answer';

// The provider directory (src/server/directory/README.md): GET /api/doctors,
// GET /api/doctors/:id and GET /api/pharmacies?zip=. The directory is the public NPPES registry, not a
// patient's data: anyone signed in may search it (a caregiver's screens are gated by ReadDoctor and
// SearchPharmacy in the app). A patient's own list of doctors is their data: GET /api/doctors/list,
// POST /api/doctors/add and DELETE /api/doctors/:id (the entry's id), with the caregivers' permissions,
// on the synced-records engine (services/doctor-mutations.ts, shared with POST /api/sync/push).

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const listErrors = { ...errors, 403: errorBodySchema, 409: errorBodySchema };

export const doctorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags: ['doctors'],
        summary: 'Search the doctor directory (name, speciality, zip nearby first), 5 a page',
        querystring: doctorSearchQuerySchema,
        response: { 200: pageOf(directoryDoctorSchema), ...errors },
      },
    },
    async (request) => searchDoctors(app.db, request.query),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['doctors'],
        summary: "A doctor's full profile from the directory",
        params: z.object({ id: z.uuid({ error: DIRECTORY_MESSAGES.doctorNotFound }) }),
        response: { 200: z.object({ data: directoryDoctorSchema }), ...errors },
      },
    },
    async (request) => ({ data: await directoryDoctor(app.db, request.params.id) }),
  );

  const listOf = app.db
    .select(wireColumns)
    .from(records)
    .where(
      and(
        eq(records.resource, 'doctors'),
        eq(records.patientId, sql.placeholder('patientId')),
        isNull(records.deletedAt),
      ),
    )
    .orderBy(asc(sql`${records.data}->>'name'`), asc(records.id))
    .prepare('my_doctors_list');

  app.get(
    '/list',
    {
      schema: {
        tags: ['doctors'],
        summary: "The patient's doctors (a caregiver names the patient: patient, or userId)",
        querystring: myDoctorListQuerySchema,
        response: { 200: myDoctorListResponseSchema, ...listErrors },
      },
      ...typedAnswer, // rows through asMyDoctor
    },
    async (request) => {
      const { patient, userId } = request.query;
      // userId, the other name this query takes, is the patient's user id; an id that is no patient's is
      // refused as any other.
      const named = patient ?? (userId ? ((await patientOfUser(userId)) ?? userId) : undefined);
      const patientId = await patientForCall(app.db, request.auth, named, DOCTOR_PERMISSIONS.read);
      const rows = await listOf.execute({ patientId });
      await recordDelivery(app.db, request.auth, { patientId, resource: 'doctors', count: rows.length });
      return { success: true as const, data: rows.map(asMyDoctor) };
    },
  );

  const patientOfUser = async (userId: string) => {
    const [found] = await app.db
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.userId, userId))
      .limit(1);
    return found?.id;
  };

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['doctors'],
        summary:
          "Removes a doctor from the patient's list: the entry's id (from /doctors/list) or the doctor's doctor_id (a caregiver names the patient)",
        headers: mutationHeadersSchema,
        params: z.object({ id: z.uuid({ error: MY_DOCTOR_MESSAGES.idInvalid }) }),
        querystring: z.object({ patient: z.uuid({ error: MY_DOCTOR_MESSAGES.patientInvalid }).optional() }),
        response: { 200: myDoctorResponseSchema, ...listErrors },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, async (tx) =>
        removeDoctor(
          restContext(tx, request.auth),
          await doctorEntryIdOf(tx, request.params.id, request.query.patient ?? request.auth.patientId),
        ),
      ),
  );
};

export const pharmacyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags: ['pharmacies'],
        summary: 'Pharmacies near a zip code, nearest first',
        querystring: pharmacySearchQuerySchema,
        response: { 200: pageOf(directoryPharmacySchema), ...errors },
      },
    },
    async (request) => searchPharmacies(app.db, request.query),
  );

  const listOf = app.db
    .select(wireColumns)
    .from(records)
    .where(
      and(
        eq(records.resource, 'pharmacies'),
        eq(records.patientId, sql.placeholder('patientId')),
        isNull(records.deletedAt),
      ),
    )
    .orderBy(
      desc(sql`coalesce((${records.data}->>'preferred')::boolean, false)`),
      asc(sql`${records.data}->>'name'`),
      asc(records.id),
    )
    .prepare('my_pharmacies_list');

  app.get(
    '/list',
    {
      schema: {
        tags: ['pharmacies'],
        summary: "The patient's pharmacies, the preferred one first (a caregiver names the patient)",
        querystring: myPharmacyListQuerySchema,
        response: { 200: myPharmacyListResponseSchema, ...listErrors },
      },
      ...typedAnswer, // rows through asMyPharmacy
    },
    async (request) => {
      const patientId = await patientForCall(
        app.db,
        request.auth,
        request.query.patient,
        PHARMACY_PERMISSIONS.read,
      );
      const rows = await listOf.execute({ patientId });
      await recordDelivery(app.db, request.auth, { patientId, resource: 'pharmacies', count: rows.length });
      return { success: true as const, data: rows.map(asMyPharmacy) };
    },
  );
};
