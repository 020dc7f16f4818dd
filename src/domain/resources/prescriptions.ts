import type { Prescription } from '../prescriptions';
import { declareResource } from './declare';

/** A patient's prescriptions; their dose times make the daily medicine schedule. */
export const prescriptionsResource = declareResource<Prescription>()({
  key: 'prescriptions',
  path: '/api/prescriptions',
  titleField: 'medicine_name',
  nouns: { one: 'a prescription', many: 'prescriptions', singular: 'prescription' },
  catalogue: {
    resource: 'Prescription',
    permissions: [
      {
        value: 'ReadPrescription',
        label: 'Read Prescription',
        description: 'View prescriptions and the medicine schedule',
        does: 'See the medicines and the daily schedule, and get the missed-dose alerts the patient turns on.',
      },
      {
        value: 'AddPrescription',
        label: 'Add Prescription',
        description: 'Add a prescription',
        does: 'Add a medicine, typed in or read from a label photo.',
      },
      {
        value: 'EditPrescription',
        label: 'Edit Prescription',
        description: 'Change a prescription',
        does: 'Change a medicine and mark its doses as taken.',
      },
      {
        value: 'DeletePrescription',
        label: 'Delete Prescription',
        description: 'Remove a prescription',
        does: 'Remove a medicine and its schedule.',
      },
    ],
  },
  permissions: {
    read: 'ReadPrescription',
    add: 'AddPrescription',
    edit: 'EditPrescription',
    delete: 'DeletePrescription',
  },
  typedFields: [
    { field: 'medicine_name', label: 'Medicine', kind: 'text' },
    { field: 'strength', label: 'Strength', kind: 'text' },
    { field: 'directions', label: 'Directions', kind: 'text' },
    { field: 'start_date', label: 'Start date', kind: 'text' },
    { field: 'end_date', label: 'End date', kind: 'text' },
    { field: 'times', label: 'Dose times', kind: 'text' },
    { field: 'status', label: 'Status', kind: 'choice' },
    { field: 'notes', label: 'Notes', kind: 'text' },
    { field: 'attachment_key', label: 'Label photo', kind: 'file' },
  ],
  deviceIndexes: ['patient_id'],
  merge: 'field',
  ids: 'random',
});
