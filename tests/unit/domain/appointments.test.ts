import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_STEP_MINUTES,
  appointmentFormSchema,
  isoToLocalInput,
  localInputToIso,
} from '../../../src/domain/appointments';

// The appointment form's time rule: the picker offers 15-minute steps, a typed time may be any minute.

const form = (appointment_date: string) => ({
  appointment_title: 'Dentist',
  appointment_date,
  doctor_id: '',
  location: '',
  notes: '',
  status: 'scheduled',
});

const messageOf = (value: string) => appointmentFormSchema.safeParse(form(value)).error?.issues[0]?.message;

describe('the appointment time', () => {
  it('offers 15-minute steps in the picker', () => {
    expect(APPOINTMENT_STEP_MINUTES).toBe(15);
  });

  it.each([
    '2027-03-04T10:00',
    '2027-03-04T10:15',
    '2027-03-04T10:07',
    '2027-03-04T23:59',
    '2027-03-04T00:01',
  ])('accepts %s as typed', (value) => {
    expect(appointmentFormSchema.safeParse(form(value)).success).toBe(true);
  });

  it('keeps the typed minute through the round trip to the stored ISO time and back', () => {
    const iso = localInputToIso('2027-03-04T10:07');
    expect(iso).not.toBeNull();
    expect(isoToLocalInput(iso ?? '')).toBe('2027-03-04T10:07');
  });

  it('still asks for a date, and a real one', () => {
    expect(messageOf('')).toBe(APPOINTMENT_MESSAGES.dateRequired);
    expect(messageOf('2027-02-30T10:00')).toBe(APPOINTMENT_MESSAGES.dateInvalid);
    expect(messageOf('tomorrow at ten')).toBe(APPOINTMENT_MESSAGES.dateInvalid);
  });
});
