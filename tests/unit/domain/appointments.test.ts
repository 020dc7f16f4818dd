import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_STEP_MINUTES,
  appointmentFieldsSchema,
  appointmentFormSchema,
  isoToZonedInput,
  zonedInputToIso,
} from '../../../src/domain/appointments';
import { appointmentZone, patientTimeZone } from '../../../src/domain/appointment-zones';

// The appointment form's time rule: the picker offers 15-minute steps, a typed time may be any minute.

const form = (appointment_date: string) => ({
  appointment_title: 'Dentist',
  appointment_date,
  doctor_id: '',
  location: '',
  notes: '',
  status: 'scheduled',
  time_zone: 'America/New_York',
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
    const iso = zonedInputToIso('2027-03-04T10:07', 'America/New_York');
    expect(iso).not.toBeNull();
    expect(isoToZonedInput(iso ?? '', 'America/New_York')).toBe('2027-03-04T10:07');
  });

  it('still asks for a date, and a real one', () => {
    expect(messageOf('')).toBe(APPOINTMENT_MESSAGES.dateRequired);
    expect(messageOf('2027-02-30T10:00')).toBe(APPOINTMENT_MESSAGES.dateInvalid);
    expect(messageOf('tomorrow at ten')).toBe(APPOINTMENT_MESSAGES.dateInvalid);
  });
});

describe("the appointment's zone", () => {
  it("reads the typed time on the clock of the chosen zone, whatever the device's", () => {
    expect(zonedInputToIso('2026-07-10T10:15', 'America/New_York')).toBe('2026-07-10T14:15:00.000Z');
    expect(zonedInputToIso('2026-07-10T10:15', 'America/Los_Angeles')).toBe('2026-07-10T17:15:00.000Z');
    expect(zonedInputToIso('2026-07-10T10:15', 'Asia/Kolkata')).toBe('2026-07-10T04:45:00.000Z');
    expect(isoToZonedInput('2026-07-10T14:15:00.000Z', 'America/Los_Angeles')).toBe('2026-07-10T07:15');
  });

  it('keeps the wall time across a daylight-saving change, and moves a skipped time past it', () => {
    // New York, 8 March 2026: 09:00 is EDT (UTC-4) that day and EST (UTC-5) the day before.
    expect(zonedInputToIso('2026-03-07T09:00', 'America/New_York')).toBe('2026-03-07T14:00:00.000Z');
    expect(zonedInputToIso('2026-03-08T09:00', 'America/New_York')).toBe('2026-03-08T13:00:00.000Z');
    // 02:30 does not exist that night: it is read as 03:30 EDT.
    const skipped = zonedInputToIso('2026-03-08T02:30', 'America/New_York') ?? '';
    expect(isoToZonedInput(skipped, 'America/New_York')).toBe('2026-03-08T03:30');
  });

  it('refuses a zone name nobody knows, with a sentence', () => {
    const result = appointmentFormSchema.safeParse({
      ...form('2026-07-10T10:15'),
      time_zone: 'Mars/Olympus',
    });
    expect(result.error?.issues[0]?.message).toBe(APPOINTMENT_MESSAGES.timeZoneInvalid);
    const fields = appointmentFieldsSchema.shape.time_zone;
    expect(fields.safeParse('Mars/Olympus').error?.issues[0]?.message).toBe(
      APPOINTMENT_MESSAGES.timeZoneInvalid,
    );
    expect(fields.safeParse('America/New_York').success).toBe(true);
    expect(fields.safeParse(null).success).toBe(true);
  });

  it("reads an appointment stored without a zone as in the patient's zone", () => {
    expect(appointmentZone({ time_zone: undefined }, 'America/New_York')).toBe('America/New_York');
    expect(appointmentZone({ time_zone: null }, 'America/New_York')).toBe('America/New_York');
    expect(appointmentZone({ time_zone: 'Europe/Berlin' }, 'America/New_York')).toBe('Europe/Berlin');
  });

  it("takes the patient's zone from their medicine schedule first, then their appointments, then the device", () => {
    const prescriptions = [
      { time_zone: 'America/Chicago', updated_at: '2026-01-01T00:00:00Z' },
      { time_zone: 'America/New_York', updated_at: '2026-02-01T00:00:00Z' },
    ];
    const appointments = [
      { time_zone: 'Europe/Berlin', updated_at: '2026-03-01T00:00:00Z' },
      { time_zone: null, updated_at: '2026-04-01T00:00:00Z' },
    ];
    expect(patientTimeZone(prescriptions, appointments, 'America/Los_Angeles')).toBe('America/New_York');
    expect(patientTimeZone([], appointments, 'America/Los_Angeles')).toBe('Europe/Berlin');
    expect(patientTimeZone([], [], 'America/Los_Angeles')).toBe('America/Los_Angeles');
  });
});
