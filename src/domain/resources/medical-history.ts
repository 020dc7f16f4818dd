import type { MedicalHistory } from '../medical-history';
import { declareResource } from './declare';

/** A patient's medical history: one record, its lists' entries kept apart. Only the patient writes it. */
export const medicalHistoryResource = declareResource<MedicalHistory>()({
  key: 'medical_history',
  path: '/api/medical-history',
  titleField: 'label',
  nouns: { one: 'the medical history', many: 'medical history entries', singular: 'medical history' },
  catalogue: {
    resource: 'Medical History',
    permissions: [
      {
        value: 'ReadMedicalHistory',
        label: 'Read Medical History',
        description: 'View medical history',
        does: 'Read the medical history, daily check-ins and Fitbit charts, without changing them.',
      },
    ],
  },
  permissions: { read: 'ReadMedicalHistory' },
  typedFields: [],
  deviceIndexes: ['patient_id'],
  merge: 'entry',
  // Made from the patient (medicalHistoryId): one history per patient, whichever device starts it.
  ids: 'name-based',
});
