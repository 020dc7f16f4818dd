import type { ApprovedRequest } from './caregivers';
import { formatClockTime, formatDate } from './date-display';
import type { MyDoctor } from './doctors';
import { assembleHistory, type MedicalHistory } from './medical-history';
import { ALLERGY_SEVERITY_LABELS, CONDITION_STATUS_LABELS } from './medical-history-fields';
import type { Prescription } from './prescriptions';

// The medical ID (README.md beside this file, "Taking records to the doctor"): what a first responder or a
// new doctor needs at a glance, from the records on the device: allergies (the dangerous ones first),
// conditions not resolved, the medicines taken now, and who to call. Words only; the screen and the
// wallet card draw it.

export type MedicalIdAllergy = { substance: string; details: string; dangerous: boolean };
export type MedicalIdContact = { name: string; role: string; phone: string | null };

export type MedicalId = {
  name: string;
  /** 'Born Mar 14, 1958 (age 68)', or null when the profile has no birth date. */
  born: string | null;
  allergies: MedicalIdAllergy[];
  conditions: string[];
  medicines: string[];
  contacts: MedicalIdContact[];
};

export type MedicalIdInput = {
  profile: { name: string; birth_date: string | null; age: number | null; phone?: string | null };
  history: MedicalHistory | undefined;
  prescriptions: readonly Prescription[];
  caregivers: readonly ApprovedRequest[];
  doctors: readonly MyDoctor[];
};

const DANGER = ['life_threatening', 'severe'];
const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** A medicine as the ID lists it: 'Metformin 500 mg: 8:00 AM, 8:00 PM' or '...: as needed'. */
export function medicineLine(prescription: Prescription, locale?: string): string {
  const name = [prescription.medicine_name, prescription.strength].filter(Boolean).join(' ');
  if (prescription.as_needed) return `${name}: as needed`;
  if (prescription.times.length === 0) return name;
  return `${name}: ${prescription.times.map((time) => formatClockTime(time, locale)).join(', ')}`;
}

export function medicalId(input: MedicalIdInput, locale?: string): MedicalId {
  const history = assembleHistory(input.history ?? {});
  const allergies = history.allergies
    .map((allergy) => ({
      substance: allergy.substance,
      details: [allergy.reaction, ALLERGY_SEVERITY_LABELS[allergy.severity]].filter(Boolean).join(' · '),
      dangerous: DANGER.includes(allergy.severity),
    }))
    // The dangerous ones first: a responder reads the top of the list.
    .sort((a, b) => Number(b.dangerous) - Number(a.dangerous) || byText(a.substance, b.substance));
  const conditions = history.conditions
    .filter((condition) => condition.status !== 'resolved')
    .map((condition) =>
      condition.status === 'active'
        ? condition.name
        : `${condition.name} (${CONDITION_STATUS_LABELS[condition.status].toLowerCase()})`,
    )
    .sort(byText);
  const medicines = input.prescriptions
    .filter((prescription) => prescription.status === 'active')
    .map((prescription) => medicineLine(prescription, locale))
    .sort(byText);
  const caregivers = [...input.caregivers]
    .sort((a, b) => Number(b.is_family) - Number(a.is_family) || byText(a.name, b.name))
    .map((link) => ({
      name: link.name,
      role: link.relationship || (link.is_family ? 'Family' : 'Caregiver'),
      phone: link.phone_number,
    }));
  const doctors = [...input.doctors]
    .sort((a, b) => byText(a.name, b.name))
    .map((doctor) => ({ name: doctor.name, role: doctor.speciality || 'Doctor', phone: doctor.phone }));
  const { birth_date: birthDate, age } = input.profile;
  const born = birthDate ? `Born ${formatDate(birthDate)}${age === null ? '' : ` (age ${age})`}` : null;
  return {
    name: input.profile.name,
    born,
    allergies,
    conditions,
    medicines,
    contacts: [...caregivers, ...doctors],
  };
}
