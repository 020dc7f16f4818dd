import { VITAL_MESSAGES, vitalFieldsSchema, vitalProblem } from '../vitals';
import { recordsOf } from './records-of';

/** The vitals' fields, checks and messages (domain/vitals.ts), from which the server and the device serve them. */
export const vitalsRecords = recordsOf(vitalFieldsSchema, {
  messages: {
    notFound: VITAL_MESSAGES.notFound,
    exists: VITAL_MESSAGES.exists,
    deletedElsewhere: VITAL_MESSAGES.deletedElsewhere,
    deleted: VITAL_MESSAGES.deleted,
    saved: VITAL_MESSAGES.saved,
  },
  check: (reading) => vitalProblem(reading),
  example: {
    kind: 'blood_pressure',
    unit: 'mmHg',
    systolic: 128,
    diastolic: 82,
    measured_at: '2026-11-20T08:15:00.000-05:00',
    note: 'Before breakfast',
  },
});
