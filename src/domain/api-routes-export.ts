import { fill, type ApiRoute } from './api-route-types';

// The route table's line for the patient summary (see api-routes.ts, which assembles the table).

export const exportRoutes: readonly ApiRoute[] = [
  {
    // The patient, and any caregiver linked to them: a caregiver's summary holds only the kinds of record
    // they may read, the others marked withheld (domain/patient-summary.ts).
    method: 'GET',
    path: '/api/export/fhir',
    access: 'signed-in',
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
];
