import { beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { ageFromBirthDate } from '../../../src/domain/dates';
import { formatDate, formatDateTime } from '../../../src/domain/date-display';
import { greetingFor, isIsoDate, isNight } from '../../../src/domain/clock';
import { guessZipCountry } from '../../../src/domain/zip';
import { spokenEmailToText } from '../../../src/domain/spoken-email';
import { UPLOAD_MESSAGES, uploadProblem } from '../../../src/domain/uploads';
import { loadPasswordStrength, passwordSchema, PASSWORD_MESSAGES } from '../../../src/domain/password';
import { messagesFromErrorBody } from '../../../src/domain/error-texts';
import {
  CAREGIVER_PERMISSION_ROUTES,
  PERMISSIONS,
  requiredPermissionFor,
} from '../../../src/domain/permissions';
import {
  AUTH_MESSAGES,
  changePasswordBodySchema,
  registerBodySchema,
  updateProfileFieldsSchema,
} from '../../../src/domain/auth';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('dates', () => {
  it('formats with the display formats', () => {
    expect(formatDateTime('2026-03-05T14:30:00', { locale: 'en-GB' })).toBe('Thu, Mar 05, 2026, 14:30');
    expect(formatDateTime('2026-03-05T14:30:00', { locale: 'en-US' })).toBe('Thu, Mar 05, 2026, 2:30 PM');
    expect(formatDate('2026-03-05')).toBe('Thu, Mar 05, 2026');
    expect(formatDate('not a date')).toBe('');
  });
  it('computes age from the birth date, counting the birthday itself', () => {
    const today = DateTime.fromISO('2026-05-17');
    expect(ageFromBirthDate('1980-05-17', today)).toBe(46);
    expect(ageFromBirthDate('1980-05-18', today)).toBe(45);
    expect(ageFromBirthDate('2030-01-01', today)).toBeNull();
    expect(ageFromBirthDate('garbage', today)).toBeNull();
  });
  it('greets Morning before 12, Afternoon before 18, otherwise Evening', () => {
    expect([0, 11, 12, 17, 18, 23].map(greetingFor)).toEqual([
      'Good Morning',
      'Good Morning',
      'Good Afternoon',
      'Good Afternoon',
      'Good Evening',
      'Good Evening',
    ]);
  });
  it('calls it night before 06:00 or after 18:00', () => {
    expect([isNight(5, 59), isNight(6), isNight(18), isNight(18, 1), isNight(23)]).toEqual([
      true,
      false,
      false,
      true,
      true,
    ]);
  });
  it('accepts only real YYYY-MM-DD dates', () => {
    expect([isIsoDate('2026-02-28'), isIsoDate('2026-02-30'), isIsoDate('02/03/2026')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('zip code type guess', () => {
  it('5 digits is US, 6 is India, anything else none', () => {
    expect([
      guessZipCountry('10001'),
      guessZipCountry(' 110001 '),
      guessZipCountry('1234'),
      guessZipCountry('ab123'),
    ]).toEqual(['US', 'IN', null, null]);
  });
});

describe('spoken e-mail', () => {
  it("turns ' dot ' into '.', ' at ' and ' attherate ' into '@', and drops spaces", () => {
    expect(spokenEmailToText('rosa dot diaz at example dot com')).toBe('rosa.diaz@example.com');
    expect(spokenEmailToText('john attherate mail dot org')).toBe('john@mail.org');
    expect(spokenEmailToText('Anna B At Clinic Dot Net')).toBe('annab@clinic.net');
  });
});

describe('password rules', () => {
  // The strength check loads on demand (its dictionary is large); the server loads it before it listens.
  beforeAll(() => loadPasswordStrength());
  it('gives a clear message for each rule', () => {
    expect(firstMessage(passwordSchema.safeParse(''))).toBe(PASSWORD_MESSAGES.required);
    expect(firstMessage(passwordSchema.safeParse('ab1'))).toBe(PASSWORD_MESSAGES.tooShort);
    expect(firstMessage(passwordSchema.safeParse(`a1${'x'.repeat(127)}`))).toBe(PASSWORD_MESSAGES.tooLong);
    expect(firstMessage(passwordSchema.safeParse('onlyletters'))).toBe(
      PASSWORD_MESSAGES.needsLetterAndNumber,
    );
    expect(firstMessage(passwordSchema.safeParse('Healthy123'))).toBe(PASSWORD_MESSAGES.tooEasy);
    expect(passwordSchema.safeParse('Healthy-garden-123').success).toBe(true);
  });
  it('checks the password change as a whole', () => {
    const result = changePasswordBodySchema.safeParse({
      old_password: 'Old12345',
      new_password: 'Juniper-Lantern-58',
      confirm_password: 'Juniper-Lantern-59',
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['confirm_password', PASSWORD_MESSAGES.mismatch],
    ]);
  });
});

describe('account contract', () => {
  const valid = {
    name: 'Rosa',
    email: ' Rosa@Example.COM ',
    password: 'Healthy-garden-123',
    role: 'Patient',
    zip_code: '10001',
  };
  it('normalises the e-mail and accepts both account types', () => {
    expect(registerBodySchema.parse(valid).email).toBe('rosa@example.com');
    expect(registerBodySchema.safeParse({ ...valid, role: 'Caregiver' }).success).toBe(true);
  });
  it.each([
    ['name', '', AUTH_MESSAGES.nameRequired],
    ['email', 'not-an-email', AUTH_MESSAGES.emailInvalid],
    ['role', 'Admin', AUTH_MESSAGES.roleInvalid],
    ['zip_code', '1234', AUTH_MESSAGES.zipInvalid],
  ])('refuses a bad %s with its message', (field, value, message) => {
    expect(firstMessage(registerBodySchema.safeParse({ ...valid, [field]: value }))).toBe(message);
  });
  it('checks profile fields against the option lists', () => {
    expect(firstMessage(updateProfileFieldsSchema.safeParse({ gender: 'Robot' }))).toBe(
      AUTH_MESSAGES.genderInvalid,
    );
    expect(firstMessage(updateProfileFieldsSchema.safeParse({ birth_date: '2999-01-01' }))).toBe(
      AUTH_MESSAGES.birthDateFuture,
    );
    expect(
      updateProfileFieldsSchema.safeParse({ race: 'Native Hawaiian or Pacific Islander', gender: '' })
        .success,
    ).toBe(true);
  });
});

describe('error catalogue', () => {
  it('reads message, error, each msg of a list, and data.error; else the default text', () => {
    expect(messagesFromErrorBody({ message: 'Nope' })).toEqual(['Nope']);
    expect(messagesFromErrorBody({ error: 'Bad thing' })).toEqual(['Bad thing']);
    expect(
      messagesFromErrorBody({ message: 'x', errors: [{ msg: 'A' }, { msg: 'B' }, { msg: 'A' }] }),
    ).toEqual(['A', 'B']);
    expect(messagesFromErrorBody({ data: { error: 'Nested' } })).toEqual(['Nested']);
    expect(messagesFromErrorBody('<html>')).toEqual(['Something went wrong']);
    expect(messagesFromErrorBody({})).toEqual(['Something went wrong']);
  });
});

describe('permissions', () => {
  it('holds the permission catalogue', () => {
    // The first 19, and Vitals' four (read, add, edit, delete).
    expect(PERMISSIONS).toHaveLength(23);
    expect(PERMISSIONS).toContain('ViewDoctorProfile');
    expect(PERMISSIONS).toEqual(
      expect.arrayContaining(['ReadVitals', 'AddVitals', 'EditVitals', 'DeleteVitals']),
    );
  });
  it('maps each caregiver route to its Read permission', () => {
    expect(CAREGIVER_PERMISSION_ROUTES.map((route) => route.permission)).toEqual([
      'ReadDoctor',
      'ReadPharmacy',
      'ReadLabReport',
      'ReadAppointment',
      'ReadPrescription',
      'ReadMedicalHistory',
      'ReadVitals',
    ]);
    expect(requiredPermissionFor('/caregiver/appointments')).toBe('ReadAppointment');
    expect(requiredPermissionFor('/caregiver/dashboard')).toBeUndefined();
  });
});

describe('uploads', () => {
  it('accepts photos and PDFs for documents, photos only for a profile, within each limit', () => {
    expect(uploadProblem('appointment', { type: 'application/pdf', size: 1000 })).toBeNull();
    expect(uploadProblem('lab', { type: 'text/plain', size: 10 })).toBe(UPLOAD_MESSAGES.fileType);
    expect(uploadProblem('lab', { type: 'image/png', size: 10 * 1024 * 1024 + 1 })).toBe(
      UPLOAD_MESSAGES.tooLarge,
    );
    expect(uploadProblem('profile', { type: 'application/pdf', size: 10 })).toBe(UPLOAD_MESSAGES.profileType);
    expect(uploadProblem('profile', { type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe(
      UPLOAD_MESSAGES.profileTooLarge,
    );
  });
});
