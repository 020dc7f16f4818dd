import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import type { Permission } from '../../domain/permissions';
import {
  IMPORT_FILE_FIELD,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  importPreviewQuerySchema,
  importPreviewResponseSchema,
  type ImportKind,
  type ImportPreview,
} from '../../domain/record-import';
import { careLinks, patients, users } from '../db/schema';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { HttpError, readingForm } from '../plugins/errors';
import { notAllowed } from '../services/access';
import { sameName } from '../services/record-import/same-name';
import { byUser, limitBy } from './auth-rate-limit';

// POST /api/import/preview (README.md beside this file): a record file from a patient portal (C-CDA XML
// or FHIR R4 JSON, multipart field `file`) read into Kincare's record shapes; nothing is written. The
// person picks what to add on the device, which adds it as ordinary changes. A caregiver names the
// patient (`?patient=`) and must be linked to them; the answer's `may_add` says which kinds their
// permissions let them add (medical history entries: the patient alone). Files are read one at a time per
// person (a rate limit) and read in a sandbox process (services/record-import/reader.ts), which starts on
// the first import.

/** The permission that lets a caregiver add each kind; null: the patient alone adds it. */
const ADD_PERMISSION: Record<ImportKind, Permission | null> = {
  allergies: null,
  conditions: null,
  immunizations: null,
  surgeries: null,
  prescriptions: 'AddPrescription',
  lab_reports: 'AddLabReport',
  vitals: 'AddVitals',
};

/** Previews per person and minute (429 beyond): reading a large document takes a second of the server. */
export const IMPORT_PREVIEWS_PER_MINUTE = 10;

/** Which kinds the caller may add for the patient; 403 when they may not act for this patient at all. */
async function mayAddFor(
  db: Database,
  auth: AuthUser,
  patientId: string,
): Promise<Record<ImportKind, boolean>> {
  if (auth.patientId === patientId)
    return Object.fromEntries(IMPORT_KINDS.map((kind) => [kind, true])) as Record<ImportKind, boolean>;
  if (!auth.caregiverId) throw notAllowed();
  const [link] = await db
    .select({ permissions: careLinks.permissions })
    .from(careLinks)
    .where(and(eq(careLinks.caregiverId, auth.caregiverId), eq(careLinks.patientId, patientId)))
    .limit(1);
  if (!link) throw notAllowed();
  return Object.fromEntries(
    IMPORT_KINDS.map((kind) => {
      const permission = ADD_PERMISSION[kind];
      return [kind, permission !== null && link.permissions.includes(permission)];
    }),
  ) as Record<ImportKind, boolean>;
}

async function patientName(db: Database, patientId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: users.name })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.userId))
    .where(eq(patients.id, patientId))
    .limit(1);
  return row?.name ?? null;
}

export const recordImportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/preview',
    {
      preHandler: limitBy(app, [{ name: 'import-preview', max: IMPORT_PREVIEWS_PER_MINUTE, key: byUser }]),
      schema: {
        tags: ['import'],
        summary: 'Reads a C-CDA or FHIR R4 record file into Kincare records, writing nothing',
        consumes: ['multipart/form-data'],
        querystring: importPreviewQuerySchema,
        response: {
          200: importPreviewResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const patientId = request.query.patient ?? request.auth.patientId;
      if (!patientId) throw new HttpError(400, 'Please select patient.');
      // Who may, before any byte of the file is read.
      const mayAdd = await mayAddFor(app.db, request.auth, patientId);
      if (!request.isMultipart()) throw new HttpError(415, IMPORT_MESSAGES.notMultipart);
      const part = await readingForm(() =>
        request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } }),
      );
      if (!part || part.fieldname !== IMPORT_FILE_FIELD)
        throw new HttpError(400, IMPORT_MESSAGES.fileMissing);
      const bytes = await readingForm(() => part.toBuffer()).catch((error: unknown) => {
        // The form reader's own 413 says "file too large" and nothing a person can act on.
        if ((error as { statusCode?: unknown }).statusCode === 413)
          throw new HttpError(413, IMPORT_MESSAGES.tooLarge);
        throw error;
      });
      if (part.file.truncated) throw new HttpError(413, IMPORT_MESSAGES.tooLarge);
      if (bytes.length === 0) throw new HttpError(400, IMPORT_MESSAGES.fileMissing);
      // Read in a sandbox process (services/record-import/reader.ts), not in this one.
      const found = await app.recordReader.read(
        new Uint8Array(bytes),
        request.auth.userId,
        request.query.zone,
      );
      const name = await patientName(app.db, patientId);
      const preview: ImportPreview = {
        ...found,
        patient_matches: found.source.patient_name && name ? sameName(found.source.patient_name, name) : null,
        may_add: mayAdd,
      };
      return { success: true as const, data: preview };
    },
  );
};
