import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import {
  assembledHistory,
  medicalHistoryId,
  medicalHistoryQuerySchema,
  medicalHistoryResponseSchema,
  medicalHistorySaveResponseSchema,
  putMedicalHistoryBodySchema,
} from '../../domain/medical-history';
import type { Permission } from '../../domain/permissions';
import { patientForCall } from '../services/access';
import { recordDelivery } from '../services/care-activity';
import { asMedicalHistory, restAnswerOf, saveMedicalHistory } from '../services/medical-history-mutations';
import { restContext } from '../services/record-mutations';
import { findRecord } from '../services/records';
import { mutationHeadersSchema, sendIdempotent } from './idempotent';

// /api/medical-history (src/domain/README.md): GET ?patient= answers the patient's history (an empty
// one, with its id, when nothing is stored yet) and PUT saves the entries and lists sent. The patient reads and
// writes their own; a linked caregiver reads with ReadMedicalHistory and never writes (the catalogue has
// no permission to). Devices read their replica and write through the outbox; these serve other clients.

const RESOURCE = 'medical_history';
const READ: Permission = 'ReadMedicalHistory';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export const medicalHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags: ['medical-history'],
        querystring: medicalHistoryQuerySchema,
        response: { 200: medicalHistoryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = await patientForCall(app.db, request.auth, request.query.patient, READ);
      const id = await medicalHistoryId(patientId);
      const row = await findRecord(app.db, RESOURCE, id);
      if (row && !row.deletedAt) {
        await recordDelivery(app.db, request.auth, { patientId, resource: RESOURCE, count: 1 });
        return { success: true as const, data: asMedicalHistory(row) };
      }
      return { success: true as const, data: assembledHistory({ id, patient_id: patientId, version: 0 }) };
    },
  );

  app.put(
    '/',
    {
      schema: {
        tags: ['medical-history'],
        headers: mutationHeadersSchema,
        body: putMedicalHistoryBodySchema,
        response: { 200: medicalHistorySaveResponseSchema, ...errors },
      },
    },
    // The stored answer holds the record as stored (what a device keeps); REST shows it assembled.
    async (request, reply) =>
      sendIdempotent(
        request,
        reply,
        (tx) => saveMedicalHistory(restContext(tx, request.auth), undefined, request.body),
        { present: restAnswerOf },
      ),
  );
};
