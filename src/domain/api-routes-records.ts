import { fill, newAppointment, RECORD_CHANGE_REFUSED, type ApiRoute } from './api-route-types';

// The route table's lines for the provider directory, the patients' records, sync and files (see
// api-routes.ts, which assembles the table).

// ---- The provider directory (public NPPES data: anyone signed in may search it) ----

export const directoryRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/doctors/list',
    access: { permission: 'ReadDoctor' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'POST',
    path: '/api/doctors/add',
    access: { permission: 'AddDoctors' },
    target: 'owner-patient',
    request: { body: { patient_id: fill('owner-patient-id'), doctor_id: fill('directory-doctor-id') } },
    allowed: 201,
    refused: 403,
    isolation: 'case', // a doctor is added once: a second add is 409
  },
  {
    method: 'DELETE',
    path: '/api/doctors/:id',
    access: { permission: 'DeleteDoctor' },
    target: 'owner-doctor',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'GET',
    path: '/api/doctors',
    access: 'signed-in',
    target: 'none',
    request: { query: { name: 'matrix', zip: '10001' } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/doctors/:id',
    access: 'signed-in',
    target: 'none',
    request: { params: { id: fill('directory-doctor-id') } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/pharmacies',
    access: 'signed-in',
    target: 'none',
    request: { query: { zip: '10001' } },
    allowed: 200,
  },
  {
    method: 'GET',
    path: '/api/pharmacies/list',
    access: { permission: 'ReadPharmacy' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  // A patient's pharmacies are changed by the patient only: the catalogue gives caregivers no such permission.
  {
    method: 'POST',
    path: '/api/pharmacies/add',
    access: 'patient-only',
    target: 'owner-patient',
    request: { body: { patient_id: fill('owner-patient-id'), pharmacy_id: fill('directory-pharmacy-id') } },
    allowed: 201,
    refused: 403,
    isolation: 'case',
  },
  {
    method: 'PUT',
    path: '/api/pharmacies/:id',
    access: 'patient-only',
    target: 'owner-pharmacy',
    request: { params: { id: fill('target-id') }, body: { preferred: true } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/pharmacies/:id',
    access: 'patient-only',
    target: 'owner-pharmacy',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
];

// ---- Records, sync and files ----

export const recordRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/appointments',
    access: { permission: 'ReadAppointment' },
    target: 'owner-patient',
    request: { query: { patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    method: 'POST',
    path: '/api/appointments',
    access: { permission: 'AddAppointment' },
    target: 'owner-patient',
    request: { body: newAppointment },
    allowed: 201,
    refused: 403,
  },
  {
    method: 'GET',
    path: '/api/appointments/:id',
    access: { permission: 'ReadAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    shows: 'record',
  },
  {
    method: 'PUT',
    path: '/api/appointments/:id',
    access: { permission: 'EditAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') }, body: { location: 'Matrix ward' } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/appointments/:id',
    access: { permission: 'DeleteAppointment' },
    target: 'owner-record',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    // Everyone signed in may pull; each gets only what their scope covers.
    method: 'GET',
    path: '/api/sync/pull',
    access: { permission: 'ReadAppointment' },
    target: 'owner-record',
    request: {},
    allowed: 200,
    refused: 'filtered',
    shows: 'record',
  },
  {
    method: 'POST',
    path: '/api/sync/push',
    access: { permission: 'EditAppointment' },
    target: 'owner-record',
    request: {
      body: {
        changes: [
          {
            idempotency_key: fill('new-key'),
            resource: 'appointments',
            op: 'update',
            id: fill('target-id'),
            payload: { location: 'Matrix ward' },
          },
        ],
      },
    },
    allowed: 200,
    item: { allowed: 200, refused: RECORD_CHANGE_REFUSED },
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/upload-image',
    access: 'signed-in',
    target: 'none',
    request: { query: { type: 'appointment' }, form: { fields: {}, file: { field: 'image' } } },
    allowed: 201,
  },
  {
    method: 'GET',
    path: '/api/upload-image/preview_image',
    access: { permission: 'ReadAppointment' },
    target: 'owner-file',
    request: { query: { key: fill('target-id') } },
    allowed: 200,
  },
  {
    // A stored file is served by its signed link alone: a bearer token, even the owner's, opens nothing.
    method: 'GET',
    path: '/api/files/*',
    access: 'public',
    target: 'owner-file',
    request: { params: { '*': fill('target-id') } },
    allowed: 403,
  },
];
