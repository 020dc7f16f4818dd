import type { CheckInRecord } from '../check-in';
import { declareResource } from './declare';

/**
 * A day's health check-in: the patient's own account of their health, read with their medical history.
 * Only the patient answers it.
 */
export const checkInsResource = declareResource<CheckInRecord>()({
  key: 'check_ins',
  path: '/api/interactions/respond',
  titleField: 'label',
  nouns: { one: 'a check-in', many: 'check-ins', singular: 'check-in answer' },
  permissions: { read: 'ReadMedicalHistory' },
  // A step is named by its label: the question and the answer given.
  typedFields: [],
  deviceIndexes: ['[patient_id+day]'],
  merge: 'field',
  // Made from the patient and the day (checkInId): one check-in a day, whichever device starts it.
  ids: 'name-based',
});
