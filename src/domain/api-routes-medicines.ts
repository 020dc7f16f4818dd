import { fill, RECORD_CHANGE_REFUSED, type ApiRoute } from './api-route-types';

// The route table's lines for prescriptions, the medicine schedule and reminders (see api-routes.ts,
// which assembles the table). Their record is the owner's prescription (`resource: 'prescriptions'`): the
// matrix seeds one whose medicine is named with a secret, which only ReadPrescription may see.

const RX = 'prescriptions' as const;
/** A valid push subscription of a browser (the keys are checked for their length only). */
const SUBSCRIPTION = {
  // An address in the public IPv6 space, so that the server takes it with no DNS lookup (the tests have
  // no DNS); nothing is ever sent to it.
  endpoint: 'https://[3000::1]/matrix',
  keys: {
    p256dh: `B${'A'.repeat(86)}`,
    auth: 'AAAAAAAAAAAAAAAAAAAAAA',
  },
};

export const medicineRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/prescriptions',
    access: { permission: 'ReadPrescription' },
    target: 'owner-patient',
    resource: RX,
    request: { query: { patient: fill('owner-patient-id'), mode: 'all' } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    method: 'GET',
    path: '/api/prescriptions/filter',
    access: { permission: 'ReadPrescription' },
    target: 'owner-patient',
    resource: RX,
    request: { query: { patient: fill('owner-patient-id'), status: 'all', doctor: 'all' } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    method: 'GET',
    path: '/api/prescriptions/schedule',
    access: { permission: 'ReadPrescription' },
    target: 'owner-patient',
    resource: RX,
    request: { query: { patient: fill('owner-patient-id'), date: '2026-06-01' } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    method: 'POST',
    path: '/api/prescriptions',
    access: { permission: 'AddPrescription' },
    target: 'owner-patient',
    resource: RX,
    request: {
      body: {
        patient_id: fill('owner-patient-id'),
        medicine_name: 'Matrix medicine',
        times: ['09:00'],
        start_date: '2026-01-01',
      },
    },
    allowed: 201,
    refused: 403,
  },
  {
    // Reading a label photo the patient uploaded is the first step of adding a prescription for them.
    method: 'POST',
    path: '/api/prescriptions/ocr',
    access: { permission: 'AddPrescription' },
    target: 'owner-file',
    resource: RX,
    request: { body: { s3Key: fill('target-id'), patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'PUT',
    path: '/api/prescriptions/:id',
    access: { permission: 'EditPrescription' },
    target: 'owner-record',
    resource: RX,
    request: { params: { id: fill('target-id') }, body: { notes: 'Matrix change' } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/prescriptions/status',
    access: { permission: 'EditPrescription' },
    target: 'owner-record',
    resource: RX,
    request: { body: { id: fill('target-id'), status: 'on_hold' } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/prescriptions/:id',
    access: { permission: 'DeletePrescription' },
    target: 'owner-record',
    resource: RX,
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'POST',
    path: '/api/prescriptions/schedule/taken',
    access: { permission: 'EditPrescription' },
    target: 'owner-record',
    resource: RX,
    request: { body: { schedule_id: fill('target-id'), date: '2026-06-01', time: '08:00', is_taken: true } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
  },
  {
    // Whoever may see the prescription may put off their own reminder of it; others learn nothing (404).
    method: 'POST',
    path: '/api/push/snooze',
    access: { permission: 'ReadPrescription' },
    target: 'owner-record',
    resource: RX,
    request: { body: { schedule_id: fill('target-id'), date: '2026-06-01', time: '08:00' } },
    allowed: 200,
    refused: 404,
  },
  {
    method: 'GET',
    path: '/api/push/public-key',
    access: 'signed-in',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    // One endpoint is one browser: whoever signs in there last gets its reminders.
    method: 'POST',
    path: '/api/push/subscriptions',
    access: 'signed-in',
    target: 'none',
    request: { body: SUBSCRIPTION },
    allowed: 201,
  },
  {
    // A test reminder goes only to a device of the caller's own; any other endpoint is 404 to all.
    method: 'POST',
    path: '/api/push/test',
    access: 'signed-in',
    target: 'none',
    request: { body: { endpoint: 'https://push.example.org/matrix-none' } },
    allowed: 404,
  },
  {
    // Each person removes only their own subscriptions; an endpoint that is not the caller's is 404 to all.
    method: 'DELETE',
    path: '/api/push/subscriptions',
    access: 'signed-in',
    target: 'none',
    request: { body: { endpoint: 'https://push.example.org/matrix-none' } },
    allowed: 404,
  },
];

// Lab reports: their record is the owner's report (`resource: 'lab_reports'`), its type named with the
// secret, which only ReadLabReport may see.
const LAB = 'lab_reports' as const;

export const labReportRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/lab-reports',
    access: { permission: 'ReadLabReport' },
    target: 'owner-patient',
    resource: LAB,
    request: { query: { patient: fill('owner-patient-id'), status: 'all', doctor: 'all' } },
    allowed: 200,
    refused: 403,
    shows: 'record',
  },
  {
    // The multipart form: the fields and the report's file in one call.
    method: 'POST',
    path: '/api/lab-reports',
    access: { permission: 'AddLabReport' },
    target: 'owner-patient',
    resource: LAB,
    request: {
      form: {
        fields: {
          patient_id: fill('owner-patient-id'),
          report_type: 'Matrix report',
          report_date: '2026-06-01',
        },
        file: { field: 'report_image' },
      },
    },
    allowed: 201,
    refused: 403,
  },
  {
    // Reading a report the patient uploaded is the first step of adding one for them.
    method: 'POST',
    path: '/api/lab-reports/ocr',
    access: { permission: 'AddLabReport' },
    target: 'owner-file',
    resource: LAB,
    request: { body: { s3Key: fill('target-id'), patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'PUT',
    path: '/api/lab-reports/:id',
    access: { permission: 'EditLabReport' },
    target: 'owner-record',
    resource: LAB,
    request: { params: { id: fill('target-id') }, body: { report_type: 'Matrix change' } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/lab-reports/:id',
    access: { permission: 'DeleteLabReport' },
    target: 'owner-record',
    resource: LAB,
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    refused: RECORD_CHANGE_REFUSED,
    isolation: 'case',
  },
];
