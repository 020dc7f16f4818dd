import { fill, type ApiRoute } from './api-route-types';

// The route table's lines for Fitbit (see api-routes.ts, which assembles the table). The matrix's app has
// no Fitbit set up (no FITBIT_CLIENT_ID): every caller allowed to connect gets the stable 503 'Fitbit is
// not available', and every caller allowed to read gets 200 with `set_up: false`, each
// checked after their right to make the call. tests/server/fitbit*.test.ts cover the real answers against
// a local fake Fitbit.

export const fitbitRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/fitbit/authorize',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 503,
  },
  {
    // The userId must be the caller's own: another patient naming the owner gets 403.
    method: 'POST',
    path: '/api/fitbit/callback',
    access: 'patient-only',
    target: 'owner-account',
    request: { body: { code: 'matrix-code', userId: fill('owner-user-id') } },
    allowed: 503,
    refused: 403,
  },
  {
    method: 'GET',
    path: '/api/fitbit/data',
    access: { permission: 'ReadMedicalHistory' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    // Forgetting works without Fitbit set up; with nothing connected it changes nothing.
    method: 'DELETE',
    path: '/api/fitbit',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
];
