import type { Appointment } from '../appointments';
import { declareResource } from './declare';

/** A patient's appointments with their doctors. */
export const appointmentsResource = declareResource<Appointment>()({
  key: 'appointments',
  path: '/api/appointments',
  titleField: 'appointment_title',
  nouns: { one: 'an appointment', many: 'appointments', singular: 'appointment' },
  catalogue: {
    resource: 'Appointment',
    permissions: [
      {
        value: 'ReadAppointment',
        label: 'Read Appointment',
        description: 'View appointments',
        does: "See the patient's appointments.",
      },
      {
        value: 'AddAppointment',
        label: 'Add Appointment',
        description: 'Book a new appointment',
        does: 'Book a new appointment for the patient.',
      },
      {
        value: 'EditAppointment',
        label: 'Edit Appointment',
        description: 'Reschedule or modify',
        does: 'Reschedule or change an appointment.',
      },
      {
        value: 'DeleteAppointment',
        label: 'Delete Appointment',
        description: 'Cancel or remove',
        does: 'Cancel or remove an appointment.',
      },
    ],
  },
  permissions: {
    read: 'ReadAppointment',
    add: 'AddAppointment',
    edit: 'EditAppointment',
    delete: 'DeleteAppointment',
  },
  typedFields: [
    { field: 'appointment_title', label: 'Title', kind: 'text' },
    { field: 'appointment_date', label: 'Date and time', kind: 'date-time' },
    { field: 'time_zone', label: 'Time zone', kind: 'text' },
    { field: 'doctor_id', label: 'Doctor', kind: 'doctor' },
    { field: 'status', label: 'Status', kind: 'choice' },
    { field: 'location', label: 'Location', kind: 'text' },
    { field: 'notes', label: 'Notes', kind: 'text' },
    { field: 'attachment_key', label: 'Attachment', kind: 'file' },
  ],
  deviceIndexes: ['patient_id'],
  merge: 'field',
  ids: 'random',
});
