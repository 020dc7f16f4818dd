import { returnLabExtraction, takeLabExtraction } from '../services/billing/plan-limits';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import {
  LAB_REPORT_PERMISSIONS as PERMISSIONS,
  REPORT_OCR_MAX_CHARACTERS,
  compareLabReports,
  createLabReportBodySchema,
  labReportDeleteResponseSchema,
  labReportIdParamsSchema,
  labReportListQuerySchema,
  labReportListResponseSchema,
  labReportOcrBodySchema,
  labReportOcrResponseSchema,
  labReportResponseSchema,
  matchesLabReportFilter,
  updateLabReportBodySchema,
  type LabReport,
} from '../../domain/lab-reports';
import { UPLOAD_MESSAGES } from '../../domain/uploads';
import { records } from '../db/schema';
import { HttpError, readingForm } from '../plugins/errors';
import { patientForCall, requireBetaPolicyAccepted } from '../services/access';
import { recordDelivery } from '../services/care-activity';
import {
  asLabReport,
  createLabReport,
  deleteLabReport,
  labReportFor,
  updateLabReport,
} from '../services/lab-report-mutations';
import { readLabReportFile } from '../services/lab-report-ocr';
import { removeFilesIfUnused } from '../services/orphan-files';
import { restContext } from '../services/record-mutations';
import { wireColumns } from '../services/records';
import { acceptedFile, storeUpload } from '../services/stored-files';
import type { StoredContentType } from '../plugins/storage';
import { checkUploadBytes, checkUploadCount } from '../services/upload-quota';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';
import { typedAnswer } from './typed-answer';

// /api/lab-reports (services/README.md) on the synced-records engine: the list with its
// filters, add and update as a multipart form (report_type, report_date, patient_id, doctor_id,
// report_ocr as JSON text, and the report_image file) or as JSON naming an uploaded file's key (how
// the device's outbox sends them), delete (which removes the file too), and extraction
// (POST /ocr { s3Key }). The mutations live in services/lab-report-mutations.ts, shared with the batched
// replay (POST /api/sync/push). Devices read their replica; these reads serve other clients.

const RESOURCE = 'lab_reports';
const FILE_FIELD = 'report_image';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
};

type ReportForm = {
  fields: Record<string, string>;
  file: { bytes: Buffer; contentType: StoredContentType } | null;
};

/** The text fields as the JSON body would carry them: empty optional ones are absent or null. */
function bodyOfForm(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields };
  if (fields.doctor_id === '') body.doctor_id = null;
  if (fields.doctor_name === '') body.doctor_name = null;
  delete body.lab_report_id; // PUT may repeat the id in its form; the path names it
  return body;
}

/** 400 listing each bad field once (the error handler's shape), as a JSON body's check would. */
function parsed<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const seen = new Set<string>();
  const list = result.error.issues.flatMap((issue) => {
    const path = issue.path.join('.');
    if (seen.has(path)) return [];
    seen.add(path);
    return [{ msg: issue.message, path }];
  });
  throw new HttpError(400, list[0]?.msg ?? 'The lab report is not valid.', undefined, { errors: list });
}

export const labReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);
  const { uploads: quota } = app.config;

  /** The multipart form, its file checked by its bytes before anything is stored. */
  async function readForm(request: FastifyRequest): Promise<ReportForm> {
    const form: ReportForm = { fields: {}, file: null };
    await readingForm(async () => {
      const parts = request.parts({ limits: { fieldSize: REPORT_OCR_MAX_CHARACTERS * 4 } });
      for await (const part of parts) {
        if (part.type === 'file') {
          if (part.fieldname !== FILE_FIELD) throw new HttpError(400, UPLOAD_MESSAGES.fileMissing);
          const bytes = await part.toBuffer();
          if (bytes.length === 0 && !part.filename) continue; // an empty file input: no file
          form.file = await acceptedFile(bytes, 'lab', {
            maxPixels: quota.maxPixels,
            converter: app.heic,
            account: request.auth.userId,
          });
        } else if (typeof part.value === 'string') {
          form.fields[part.fieldname] = part.value;
        }
      }
    });
    return form;
  }

  /** A form's fingerprint: its fields and its file, so a retried upload with the same key is the same call. */
  function formFingerprint(request: FastifyRequest, form: ReportForm): string {
    const hash = createHash('sha256').update(`${request.method} ${request.url} `);
    hash.update(JSON.stringify(Object.entries(form.fields).sort()));
    if (form.file) hash.update(form.file.bytes);
    return hash.digest('base64url');
  }

  /** Reads the form (or takes the JSON body) of an add or an update, storing a file it carries. */
  async function takeReport(request: FastifyRequest) {
    if (!request.isMultipart()) return { body: request.body ?? {}, file: null, fingerprint: undefined };
    // Before the file is read: no bytes of someone who may not store anything yet are taken in.
    await requireBetaPolicyAccepted(app.db, request.auth.userId);
    await checkUploadCount(app.db, request.auth.userId, quota);
    const form = await readForm(request);
    if (form.file) await checkUploadBytes(app.db, request.auth.userId, form.file.bytes.length, quota);
    return { body: bodyOfForm(form.fields), file: form.file, fingerprint: formFingerprint(request, form) };
  }

  app.get(
    '/',
    {
      schema: {
        tags: ['lab reports'],
        querystring: labReportListQuerySchema,
        response: { 200: labReportListResponseSchema, ...errors },
      },
      ...typedAnswer,
    },
    async (request) => {
      const { patient, ...query } = request.query;
      const patientId = await patientForCall(app.db, request.auth, patient, PERMISSIONS.read);
      const given = <Value>(value: Value | 'all' | '' | undefined) =>
        value === 'all' || value === '' ? undefined : value;
      const filter = {
        status: given(query.status),
        doctor: given(query.doctor),
        startDate: query.startDate,
        endDate: query.endDate,
      };
      const rows = await app.db
        .select(wireColumns)
        .from(records)
        .where(
          and(eq(records.resource, RESOURCE), eq(records.patientId, patientId), isNull(records.deletedAt)),
        );
      const data = rows
        .map(asLabReport)
        .filter((report) => matchesLabReportFilter(report, filter))
        .sort((a, b) => compareLabReports(a as LabReport, b as LabReport));
      await recordDelivery(app.db, request.auth, { patientId, resource: RESOURCE, count: data.length });
      return { success: true as const, data };
    },
  );

  app.post(
    '/ocr',
    {
      schema: {
        tags: ['lab reports'],
        body: labReportOcrBodySchema,
        response: { 200: labReportOcrResponseSchema, ...errors, 422: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      // Reading a report is the first step of adding one (or of correcting its results) for the patient.
      const patientId = await patientForCall(app.db, request.auth, request.body.patient, PERMISSIONS.add);
      // Each reading counts against the patient's plan; one the service could not do is given back.
      const takenAt = new Date();
      await takeLabExtraction(app.db, patientId, takenAt);
      try {
        return await readLabReportFile(
          { db: app.db, storage: app.storage, ocr: app.ocr },
          { key: request.body.s3Key, callerUserId: request.auth.userId, patientId },
        );
      } catch (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        if (typeof status !== 'number' || status >= 500)
          await returnLabExtraction(app.db, patientId, takenAt);
        throw error;
      }
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['lab reports'],
        headers: mutationHeadersSchema,
        // No body schema: a multipart form has no JSON body; both shapes are checked in the handler.
        response: { 201: labReportResponseSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const taken = await takeReport(request);
      const body = parsed(createLabReportBodySchema, taken.body);
      return sendIdempotent(
        request,
        reply,
        async (tx) => {
          const context = restContext(tx, request.auth);
          // The file goes in the patient's folder, once the caller is known to be allowed to add for them.
          const patientId = await context.access.patientForCall(tx, body.patient_id, PERMISSIONS.add);
          const attachment_key = taken.file
            ? await storeUpload(
                tx,
                app.storage,
                {
                  ownerUserId: request.auth.userId,
                  folder: patientId,
                  type: 'lab',
                  ...taken.file,
                },
                quota,
              )
            : body.attachment_key;
          return createLabReport(context, body.id ?? crypto.randomUUID(), { ...body, attachment_key });
        },
        taken.fingerprint ? { fingerprint: taken.fingerprint } : {},
      );
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['lab reports'],
        headers: mutationHeadersSchema,
        params: labReportIdParamsSchema,
        response: { 200: labReportResponseSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const taken = await takeReport(request);
      const body = parsed(updateLabReportBodySchema, taken.body);
      return sendIdempotent(
        request,
        reply,
        async (tx) => {
          const context = restContext(tx, request.auth);
          // A new file goes in the report's patient's folder, once the caller may change the report.
          const current = taken.file
            ? await labReportFor(tx, context.access, request.params.id, PERMISSIONS.edit)
            : null;
          const patch =
            taken.file && current
              ? {
                  ...body,
                  attachment_key: await storeUpload(
                    tx,
                    app.storage,
                    {
                      ownerUserId: request.auth.userId,
                      folder: current.patientId,
                      type: 'lab',
                      ...taken.file,
                    },
                    quota,
                  ),
                }
              : body;
          return updateLabReport(context, request.params.id, patch);
        },
        taken.fingerprint ? { fingerprint: taken.fingerprint } : {},
      );
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['lab reports'],
        headers: mutationHeadersSchema,
        params: labReportIdParamsSchema,
        response: { 200: labReportDeleteResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const released = new Set<string>();
      return sendIdempotent(
        request,
        reply,
        (tx) =>
          deleteLabReport({ ...restContext(tx, request.auth), releasedFiles: released }, request.params.id),
        // After the commit and before the answer: the report is gone, and so is its file (unless another
        // live record holds it). Removing it after the answer was sent let a quick caller still preview it.
        { afterCommit: () => removeFilesIfUnused(app.db, app.storage, released) },
      );
    },
  );
};
