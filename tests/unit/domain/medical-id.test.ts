import { describe, expect, it } from 'vitest';
import type { ApprovedRequest } from '../../../src/domain/caregivers';
import { medicalId } from '../../../src/domain/medical-id';
import {
  summaryDoctors,
  summaryHistory,
  summaryPrescriptions,
  SUMMARY_PATIENT_ID,
} from '../../fixtures/summary-records';

// The medical ID's facts: the dangerous allergies first, conditions not resolved, only the medicines
// taken now, and the people to call (family first, then other caregivers, then doctors).

const caregiver = (name: string, fields: Partial<ApprovedRequest>): ApprovedRequest => ({
  request_id: `r-${name}`,
  permission_id: `p-${name}`,
  patient_id: SUMMARY_PATIENT_ID,
  caregiver_id: `c-${name}`,
  name,
  email: `${name.toLowerCase()}@example.com`,
  is_family: false,
  relationship: null,
  permissions: [],
  phone_number: null,
  status: 'approved',
  approved_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

const input = {
  profile: { name: 'Pat O’Brien', birth_date: '1958-03-14', age: 68 },
  history: summaryHistory,
  prescriptions: summaryPrescriptions,
  caregivers: [
    caregiver('Nina', { phone_number: '555-0101' }),
    caregiver('Dana', { is_family: true, relationship: 'Daughter', phone_number: '555-0102' }),
  ],
  doctors: summaryDoctors,
};

describe('the medical ID', () => {
  it('lists the dangerous allergies first, with their reaction and severity', () => {
    expect(medicalId(input, 'en-US').allergies).toEqual([
      { substance: 'Penicillin', details: 'Hives · Life-threatening', dangerous: true },
      { substance: 'Peanuts', details: 'Mild', dangerous: false },
    ]);
  });

  it('lists conditions not resolved, and the medicines taken now with their times', () => {
    const id = medicalId(input, 'en-US');
    expect(id.conditions).toEqual(['Type 2 diabetes (managed)']);
    expect(id.medicines).toEqual([
      'Albuterol HFA 90 mcg/actuation: as needed',
      'Metformin 500 mg: 8:00 AM, 8:00 PM',
    ]);
    expect(id.name).toBe('Pat O’Brien');
    expect(id.born).toBe('Born Fri, Mar 14, 1958 (age 68)');
  });

  it('names who to call: family first, then other caregivers, then doctors', () => {
    expect(medicalId(input, 'en-US').contacts).toEqual([
      { name: 'Dana', role: 'Daughter', phone: '555-0102' },
      { name: 'Nina', role: 'Caregiver', phone: '555-0101' },
      { name: 'Maria Lopez', role: 'Internal Medicine', phone: '217-555-0100' },
    ]);
  });

  it('is empty, not wrong, for a person with no records', () => {
    expect(
      medicalId({
        profile: { name: 'New', birth_date: null, age: null },
        history: undefined,
        prescriptions: [],
        caregivers: [],
        doctors: [],
      }),
    ).toEqual({ name: 'New', born: null, allergies: [], conditions: [], medicines: [], contacts: [] });
  });
});
