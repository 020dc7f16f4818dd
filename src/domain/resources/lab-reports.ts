import type { LabReport } from '../lab-reports';
import { declareResource } from './declare';

/** A patient's lab reports: the photo or PDF and the results read from it, as reviewed. */
export const labReportsResource = declareResource<LabReport>()({
  key: 'lab_reports',
  path: '/api/lab-reports',
  titleField: 'report_type',
  nouns: { one: 'a lab report', many: 'lab reports', singular: 'lab report' },
  catalogue: {
    resource: 'Lab Report',
    permissions: [
      {
        value: 'ReadLabReport',
        label: 'Read Lab Report',
        description: 'View lab reports',
        does: 'See lab reports, their files and the latest results.',
      },
      {
        value: 'AddLabReport',
        label: 'Add Lab Report',
        description: 'Upload a lab report',
        does: 'Upload a lab report and have its results read.',
      },
      {
        value: 'EditLabReport',
        label: 'Edit Lab Report',
        description: 'Change a lab report',
        does: 'Correct a lab report and its results.',
      },
      {
        value: 'DeleteLabReport',
        label: 'Delete Lab Report',
        description: 'Remove a lab report',
        does: 'Remove a lab report.',
      },
    ],
  },
  permissions: {
    read: 'ReadLabReport',
    add: 'AddLabReport',
    edit: 'EditLabReport',
    delete: 'DeleteLabReport',
  },
  typedFields: [
    { field: 'report_type', label: 'Report Type', kind: 'text' },
    { field: 'report_date', label: 'Report Date', kind: 'text' },
    { field: 'attachment_key', label: 'Report file', kind: 'file' },
  ],
  deviceIndexes: ['patient_id'],
  merge: 'field',
  ids: 'random',
  // A report chosen offline is read once its file is uploaded.
  afterSync: 'read-waiting-reports',
});
