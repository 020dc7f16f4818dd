import type { ApiRoute } from './api-route-types';

// The route table's line for reading a record file before importing it (see api-routes.ts, which
// assembles the table).

export const importRoutes: readonly ApiRoute[] = [
  {
    // The patient, and any caregiver linked to them: the preview writes nothing and shows only what the
    // file holds (which kinds the caller may then add is in its answer). The matrix sends its tiny PNG,
    // which is no record file: the 400 every caller who may ask gets.
    method: 'POST',
    path: '/api/import/preview',
    access: 'signed-in',
    target: 'owner-patient',
    request: {
      query: { patient: { $fill: 'owner-patient-id' } },
      form: { fields: {}, file: { field: 'file' } },
    },
    allowed: 400,
    refused: 403,
  },
];
