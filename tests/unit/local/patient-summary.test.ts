import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { profileSchema, type Profile } from '../../../src/domain/auth';
import { patientSummary } from '../../../src/domain/patient-summary';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { deviceSummary, SUMMARY_DEVICE_MESSAGES, summaryFile } from '../../../src/local/patient-summary';
import {
  SUMMARY_PATIENT_ID,
  summaryDoctors,
  summaryHistory,
  summaryInput,
  summaryLabReports,
  summaryPrescriptions,
  summaryVitals,
} from '../../fixtures/summary-records';

// The summary made on the device from its replica, with no connection: the same document the domain's
// builder makes of the same records (the server's answer is checked against that builder in
// tests/server/patient-summary.test.ts), a caregiver's holding only what the patient lets them read.

const USER = '6f1c1d4e-0000-4000-8000-0000000000aa';
const CAREGIVER = '6f1c1d4e-0000-4000-8000-0000000000cc';
const NOW = new Date('2026-11-29T10:00:00.000Z');
const DOCUMENT = 'c0ffee00-0000-4000-8000-000000000001';
let db: KincareDb;

const profile = (fields: Partial<Profile>): Profile =>
  profileSchema.parse({
    id: USER,
    name: 'Pat O’Brien',
    role: 'Patient',
    email: 'pat@example.com',
    zip_code: '62701',
    patient_id: SUMMARY_PATIENT_ID,
    caregiver_id: null,
    stripe_customer_id: null,
    email_verified: true,
    birth_date: '1958-03-14',
    age: 68,
    gender: 'Female',
    race: null,
    ethnicity: null,
    phone: null,
    address: null,
    city: null,
    state: null,
    photo_url: null,
    beta_policy_accepted_at: NOW.toISOString(),
    ...fields,
  });

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}${USER}`);
  await db.open();
  await db.prescriptions.bulkPut(summaryPrescriptions);
  await db.medical_history.put(summaryHistory);
  await db.lab_reports.bulkPut(summaryLabReports);
  await db.vitals.bulkPut(summaryVitals);
  await db.doctors.bulkPut(summaryDoctors);
  // Another patient's record on the same device (a caregiver's replica holds several): never in it.
  await db.prescriptions.put({
    ...summaryPrescriptions[0]!,
    id: '99999999-0000-4000-8000-000000000001',
    patient_id: '99999999-0000-4000-8000-0000000000ff',
    medicine_name: 'Someone Else’s',
  });
});
afterEach(async () => {
  await db.delete();
});

describe('the summary made on the device', () => {
  it("is the domain's document of the patient's own records, made with no connection", async () => {
    await db.profile.put(profile({}));
    const made = await deviceSummary(db, SUMMARY_PATIENT_ID, { now: NOW, documentId: DOCUMENT });
    expect(made).toEqual(await patientSummary(summaryInput()));
    expect(JSON.stringify(made)).not.toContain('Someone Else');
  });

  it('holds for a caregiver what the patient lets them read, the rest withheld', async () => {
    await db.profile.put(
      profile({
        id: CAREGIVER,
        name: 'Cora Carer',
        role: 'Caregiver',
        patient_id: null,
        caregiver_id: CAREGIVER,
      }),
    );
    await db.associatedPatients.put({
      user_id: USER,
      patient_id: SUMMARY_PATIENT_ID,
      name: 'Pat O’Brien',
      email: 'pat@example.com',
      permissions: ['ReadPrescription', 'ReadVitals'],
      permission_id: 'link-1',
    });
    const made = await deviceSummary(db, SUMMARY_PATIENT_ID, { now: NOW, documentId: DOCUMENT });
    expect(made).toEqual(
      await patientSummary(
        summaryInput({
          patient: { id: SUMMARY_PATIENT_ID, name: 'Pat O’Brien' },
          author: { kind: 'caregiver', id: CAREGIVER, name: 'Cora Carer' },
          records: { prescriptions: summaryPrescriptions, vitals: summaryVitals },
        }),
      ),
    );
    const text = JSON.stringify(made);
    expect(text).not.toMatch(/Penicillin|Comprehensive|Maria Lopez|1958/);
    expect(text).toContain('"code":"withheld"');
  });

  it('says so when the patient is not one this caregiver cares for', async () => {
    await db.profile.put(
      profile({ id: CAREGIVER, role: 'Caregiver', patient_id: null, caregiver_id: CAREGIVER }),
    );
    await expect(deviceSummary(db, SUMMARY_PATIENT_ID)).rejects.toThrow(SUMMARY_DEVICE_MESSAGES.notLinked);
  });

  it('is saved as a FHIR JSON file named after the patient and the day', async () => {
    await db.profile.put(profile({}));
    const file = summaryFile(await deviceSummary(db, SUMMARY_PATIENT_ID, { now: NOW, documentId: DOCUMENT }));
    expect(file.name).toBe('kincare-summary-pat-o-brien-2026-11-29.json');
    expect(file.type).toBe('application/fhir+json');
    expect(JSON.parse(await file.text())).toMatchObject({ resourceType: 'Bundle', type: 'document' });
  });
});
