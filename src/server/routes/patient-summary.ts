import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import {
  PATIENT_SUMMARY_MESSAGES,
  patientSummary,
  patientSummaryQuerySchema,
  patientSummaryResponseSchema,
  summaryFileName,
  SUMMARY_RESOURCES,
  type PatientSummaryInput,
  type SummaryResource,
} from '../../domain/patient-summary';
import { RESOURCE_READ_PERMISSION } from '../../domain/permissions';
import { careLinks, patients, records, users } from '../db/schema';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { notAllowed } from '../services/access';
import { toWire, wireColumns } from '../services/records';

// GET /api/export/fhir (README.md beside this file): the patient summary, a FHIR R4 document, made by
// domain/patient-summary.ts from the records the caller may read, the same function the device runs on
// its replica. A caregiver names the patient (`?patient=`) and must be linked to them; what they may not
// read is marked withheld, not left out silently. Answered as application/fhir+json, as a file to save.

/** Which resources of the patient the caller may read, and who they are in the document; 403 if none. */
async function readerOf(db: Database, auth: AuthUser, patientId: string) {
  const [patient] = await db
    .select({ name: users.name, birthDate: users.birthDate, gender: users.gender })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.userId))
    .where(eq(patients.id, patientId))
    .limit(1);
  if (auth.patientId === patientId && patient)
    return {
      readable: [...SUMMARY_RESOURCES],
      patient: { id: patientId, name: patient.name, birth_date: patient.birthDate, gender: patient.gender },
      author: { kind: 'patient' } as const,
    };
  if (!auth.caregiverId || !patient) throw notAllowed();
  const [link] = await db
    .select({ permissions: careLinks.permissions, name: users.name })
    .from(careLinks)
    .innerJoin(users, eq(users.id, auth.userId))
    .where(and(eq(careLinks.caregiverId, auth.caregiverId), eq(careLinks.patientId, patientId)))
    .limit(1);
  if (!link) throw notAllowed();
  return {
    readable: SUMMARY_RESOURCES.filter((resource) =>
      link.permissions.includes(RESOURCE_READ_PERMISSION[resource]),
    ),
    // A caregiver knows the patient by name; the rest of their profile is the patient's.
    patient: { id: patientId, name: patient.name },
    author: { kind: 'caregiver', id: auth.caregiverId, name: link.name } as const,
  };
}

/** The patient's live records of each readable resource, as the pull gives them to a device. */
async function recordsOf(
  db: Database,
  patientId: string,
  readable: readonly SummaryResource[],
): Promise<PatientSummaryInput['records']> {
  const found: Record<string, unknown[]> = Object.fromEntries(readable.map((resource) => [resource, []]));
  if (readable.length === 0) return found;
  const rows = await db
    .select({ ...wireColumns, resource: records.resource })
    .from(records)
    .where(
      and(
        eq(records.patientId, patientId),
        inArray(records.resource, [...readable]),
        isNull(records.deletedAt),
      ),
    );
  for (const row of rows) found[row.resource]?.push(toWire(row));
  return found as PatientSummaryInput['records'];
}

export const patientSummaryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/fhir',
    {
      schema: {
        tags: ['export'],
        summary: "The patient's records as a FHIR R4 patient summary (a document Bundle)",
        querystring: patientSummaryQuerySchema,
        response: {
          200: patientSummaryResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const patientId = request.query.patient ?? request.auth.patientId;
      if (!patientId) throw new HttpError(400, PATIENT_SUMMARY_MESSAGES.patientRequired);
      const reader = await readerOf(app.db, request.auth, patientId);
      const generatedAt = new Date().toISOString();
      const summary = await patientSummary({
        patient: reader.patient,
        author: reader.author,
        records: await recordsOf(app.db, patientId, reader.readable),
        generatedAt,
        documentId: randomUUID(),
      });
      void reply
        .type('application/fhir+json; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${summaryFileName(reader.patient.name, generatedAt)}"`,
        )
        .header('Cache-Control', 'no-store');
      return summary;
    },
  );
};
