import type { Vital } from '../vitals';
import { declareResource } from './declare';

/**
 * Vitals: the measurements a patient takes at home (domain/vitals.ts). Served from this declaration alone:
 * no code of its own on the server, the device's generic write path. Its fields, checks and messages are
 * in vitals-records.ts.
 */
export const vitalsResource = declareResource<Vital>()({
  key: 'vitals',
  path: '/api/vitals',
  titleField: 'note',
  nouns: { one: 'a vital reading', many: 'vital readings', singular: 'vital reading' },
  catalogue: {
    resource: 'Vitals',
    permissions: [
      {
        value: 'ReadVitals',
        label: 'Read Vitals',
        description: 'View vital readings and their charts',
        does: 'See blood pressure, weight and the other readings, with their charts.',
      },
      {
        value: 'AddVitals',
        label: 'Add Vitals',
        description: 'Enter a new reading',
        does: 'Enter a new reading for the patient.',
      },
      {
        value: 'EditVitals',
        label: 'Edit Vitals',
        description: 'Correct a reading',
        does: 'Correct a reading.',
      },
      {
        value: 'DeleteVitals',
        label: 'Delete Vitals',
        description: 'Remove a reading',
        does: 'Remove a reading.',
      },
    ],
  },
  permissions: { read: 'ReadVitals', add: 'AddVitals', edit: 'EditVitals', delete: 'DeleteVitals' },
  typedFields: [
    { field: 'kind', label: 'Measurement', kind: 'choice' },
    { field: 'value', label: 'Value', kind: 'number' },
    { field: 'systolic', label: 'Systolic', kind: 'number' },
    { field: 'diastolic', label: 'Diastolic', kind: 'number' },
    { field: 'unit', label: 'Unit', kind: 'text' },
    { field: 'measured_at', label: 'Measured at', kind: 'date-time' },
    { field: 'note', label: 'Note', kind: 'text' },
  ],
  deviceIndexes: ['[patient_id+kind]'],
  merge: 'field',
  ids: 'random',
  screen: { label: 'Vitals', path: '/vitals', caregiverPath: '/caregiver/vitals', icon: 'activity' },
  servedFrom: 'records',
});
