import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import {
  FITBIT_MESSAGES,
  fitbitAuthorizeSchema,
  fitbitCallbackBodySchema,
  fitbitDataQuerySchema,
  fitbitDataSchema,
  fitbitMessageSchema,
  notConnectedFitbit,
} from '../../domain/fitbit';
import type { FitbitConfig } from '../config-fitbit';
import { HttpError } from '../plugins/errors';
import { patientForCall, requireBetaPolicyAccepted, requirePatient } from '../services/access';
import {
  disconnect,
  finishAuthorization,
  fitbitDataOf,
  startAuthorization,
} from '../services/fitbit/connection';
import { byUser, limitBy } from './auth-rate-limit';

// /api/fitbit (services/fitbit/README.md). The patient connects their Fitbit (authorize,
// then the callback page posts the code), reads the last 30 days (data; a linked caregiver with Read
// Medical History reads them too) and disconnects. Without FITBIT_CLIENT_ID connecting answers 503 and
// reading answers 'not set up' (set_up: false, so Home says so without a failed request on every visit),
// each after the caller's right to make the call was checked (so a refusal is the same either way).

/** Connecting, per person and minute: a few tries are plenty; more would only spend Fitbit's quota. */
export const FITBIT_CONNECT_PER_MINUTE = 10;
/** Reads per person and minute (Fitbit itself is asked at most every 15 minutes per patient). */
export const FITBIT_DATA_PER_MINUTE = 30;

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
  503: errorBodySchema,
};

export const fitbitRoutes: FastifyPluginAsyncZod = async (app) => {
  const connectLimit = limitBy(app, [
    { name: 'fitbit-connect', max: FITBIT_CONNECT_PER_MINUTE, key: byUser },
  ]);
  const dataLimit = limitBy(app, [{ name: 'fitbit-data', max: FITBIT_DATA_PER_MINUTE, key: byUser }]);

  function setUp(): FitbitConfig {
    if (!app.config.fitbit) throw new HttpError(503, FITBIT_MESSAGES.notSetUp);
    return app.config.fitbit;
  }

  app.get(
    '/authorize',
    {
      onRequest: app.authenticate,
      preHandler: connectLimit,
      schema: {
        tags: ['fitbit'],
        summary:
          "Fitbit's sign-in page for the patient (PKCE, S256); the connection waits 10 minutes for the code.",
        response: { 200: fitbitAuthorizeSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      await requireBetaPolicyAccepted(app.db, request.auth.userId);
      const config = setUp();
      return { url: await startAuthorization(app.db, config, patientId) };
    },
  );

  app.post(
    '/callback',
    {
      onRequest: app.authenticate,
      preHandler: connectLimit,
      schema: {
        tags: ['fitbit'],
        summary: "Finishes connecting: exchanges Fitbit's code (with the PKCE verifier) for the tokens.",
        body: fitbitCallbackBodySchema,
        response: { 200: fitbitMessageSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = requirePatient(request.auth);
      if (request.body.userId.toLowerCase() !== request.auth.userId.toLowerCase())
        throw new HttpError(403, FITBIT_MESSAGES.wrongUser);
      await requireBetaPolicyAccepted(app.db, request.auth.userId);
      const config = setUp();
      await finishAuthorization(app.db, config, patientId, request.body.code, request.body.state);
      return { message: FITBIT_MESSAGES.connected };
    },
  );

  app.get(
    '/data',
    {
      onRequest: app.authenticate,
      preHandler: dataLimit,
      schema: {
        tags: ['fitbit'],
        summary:
          "The patient's last 30 days of steps, resting heart rate and sleep (a caregiver names the patient " +
          'and needs ReadMedicalHistory); Fitbit is asked again at most every 15 minutes.',
        querystring: fitbitDataQuerySchema,
        response: { 200: fitbitDataSchema, ...errors },
      },
    },
    async (request) => {
      const patientId = await patientForCall(
        app.db,
        request.auth,
        request.query.patient,
        'ReadMedicalHistory',
      );
      if (!app.config.fitbit) return notConnectedFitbit(false);
      return fitbitDataOf(app.db, app.config.fitbit, patientId, request.log);
    },
  );

  app.delete(
    // '' not '/': the path is /api/fitbit itself.
    '',
    {
      onRequest: app.authenticate,
      preHandler: connectLimit,
      schema: {
        tags: ['fitbit'],
        summary:
          "Disconnects the patient's Fitbit: its tokens and days are forgotten (also when Fitbit is not set up).",
        response: { 200: fitbitMessageSchema, ...errors },
      },
    },
    async (request) => {
      await disconnect(app.db, app.config.fitbit, requirePatient(request.auth), request.log);
      return { message: FITBIT_MESSAGES.disconnected };
    },
  );
};
