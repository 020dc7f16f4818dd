import type { DoseMark } from '../dose-marks';
import { declareResource } from './declare';

/**
 * A mark of one dose of the medicine schedule, taken or not, with who marked it. It goes with the
 * prescriptions: whoever may read them sees the marks, whoever may change them marks a dose.
 */
export const doseMarksResource = declareResource<DoseMark>()({
  key: 'dose_marks',
  path: '/api/prescriptions/schedule/taken',
  titleField: 'label',
  nouns: { one: 'a dose', many: 'dose marks', singular: 'dose mark' },
  permissions: { read: 'ReadPrescription', add: 'EditPrescription', edit: 'EditPrescription' },
  typedFields: [
    { field: 'date', label: 'Day', kind: 'text' },
    { field: 'time', label: 'Time', kind: 'text' },
    { field: 'is_taken', label: 'Taken', kind: 'choice' },
  ],
  deviceIndexes: ['[patient_id+date]'],
  merge: 'field',
  // Made from the prescription, the day and the time (doseMarkId): two devices mark one dose alike.
  ids: 'name-based',
});
