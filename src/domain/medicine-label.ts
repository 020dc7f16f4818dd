import type { Prescription } from './prescriptions';

// How a medicine is named on screen ('Metformin 500 mg'): apart from prescriptions.ts and its schemas, so the
// medicine schedule that Home draws first loads no schema library with it.

export function medicineLabel(prescription: Pick<Prescription, 'medicine_name' | 'strength'>): string {
  return prescription.strength
    ? `${prescription.medicine_name} ${prescription.strength}`
    : prescription.medicine_name;
}
