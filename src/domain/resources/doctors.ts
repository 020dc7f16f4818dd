import type { MyDoctor } from '../doctors';
import { declareResource } from './declare';

/** The doctors in a patient's network: entries of the provider directory the patient added. */
export const doctorsResource = declareResource<MyDoctor>()({
  key: 'doctors',
  path: '/api/doctors',
  titleField: 'name',
  nouns: { one: 'a doctor', many: 'doctors', singular: 'doctor' },
  catalogue: {
    resource: 'Doctor',
    permissions: [
      {
        value: 'ReadDoctor',
        label: 'Read Doctor',
        description: 'View list of associated doctors',
        does: "See the patient's doctors and how to reach them.",
      },
      {
        value: 'AddDoctors',
        label: 'Add Doctors',
        description: 'Add a doctor to the network',
        does: "Add a doctor from the directory to the patient's list.",
      },
      {
        value: 'DeleteDoctor',
        label: 'Delete Doctor',
        description: 'Remove a doctor',
        does: "Remove a doctor from the patient's list.",
      },
      {
        value: 'ViewDoctorProfile',
        label: 'View Doctor Profile',
        description: 'View detailed profile and qualifications',
        does: "Open a doctor's full profile, with their qualifications.",
      },
    ],
  },
  permissions: { read: 'ReadDoctor', add: 'AddDoctors', delete: 'DeleteDoctor' },
  // A doctor is added from the directory, not typed: a refused change names them by its label.
  typedFields: [],
  deviceIndexes: ['patient_id'],
  merge: 'field',
  ids: 'random',
});
