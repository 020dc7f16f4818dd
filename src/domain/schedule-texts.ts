// The medicine schedule's empty state, said by the schedule itself and by Home's medicines card. Home says
// it at once when the patient has no prescription on the device, without loading the schedule (Luxon and
// its rules) that could only say the same; so these sentences live apart from that code.
export const SCHEDULE_EMPTY_TEXTS = {
  today: 'No medicines to take today.',
  hint: 'Active prescriptions with dose times show here, grouped by time, to tick off as they are taken.',
} as const;
