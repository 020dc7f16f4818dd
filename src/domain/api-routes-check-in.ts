import { fill, type ApiRoute } from './api-route-types';

// The route table's lines for the daily health check-in (see api-routes.ts, which assembles the table).
// A caregiver reads a linked patient's check-ins with ReadMedicalHistory; only the patient answers or
// resets their own (403 to caregivers whatever they hold, and to another patient naming the owner).

/**
 * The check-in's day: the server accepts a device's date only near its own, so the calls name the date
 * the table is loaded on (the matrix plays them moments later; any time zone's date is within a day).
 */
const TODAY = new Date().toISOString().slice(0, 10);
const READ = { permission: 'ReadMedicalHistory' } as const;

export const checkInRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/interactions/init',
    access: READ,
    target: 'owner-patient',
    request: { query: { day: TODAY, patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'GET',
    path: '/api/interactions/summary',
    access: READ,
    target: 'owner-patient',
    request: { query: { days: '30', patient: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
  {
    // The same answer again changes nothing (200), so the owner's call can be played more than once.
    method: 'POST',
    path: '/api/interactions/respond',
    access: 'patient-only',
    target: 'owner-patient',
    request: {
      body: { day: TODAY, patient_id: fill('owner-patient-id'), question_id: 'mood', answer: 'good' },
    },
    allowed: 200,
    refused: 403,
  },
  {
    method: 'POST',
    path: '/api/interactions/reset',
    access: 'patient-only',
    target: 'owner-patient',
    request: { body: { day: TODAY, patient_id: fill('owner-patient-id') } },
    allowed: 200,
    refused: 403,
  },
];
