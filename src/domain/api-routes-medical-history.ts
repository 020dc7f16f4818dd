import { fill, type ApiRoute } from './api-route-types';

// The route table's lines for the medical history (see api-routes.ts, which assembles the table). A
// caregiver reads a linked patient's history with ReadMedicalHistory; only the patient saves their own
// (403 to caregivers whatever they hold, and to another patient naming the owner).

export const medicalHistoryRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/medical-history',
    access: { permission: 'ReadMedicalHistory' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    // Saving the same fields again changes nothing another case looks at, so the owner's call may be
    // played more than once.
    method: 'PUT',
    path: '/api/medical-history',
    access: 'patient-only',
    target: 'owner-patient',
    request: { body: { patient_id: fill('owner-patient-id'), immunizations: [] } },
    allowed: 200,
    refused: 403,
  },
];
