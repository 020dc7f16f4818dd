import type { DirectionsReading } from '../../../domain/directions';
import type { MyPharmacy } from '../../../domain/pharmacies';
import type { LocalDoctor } from '../../../local/db';

// The choices the prescription form offers and what it says under the directions, from the patient's
// lists and the platform: apart from the form so each reads in one place.

type Option = { value: string; label: string };

// A doctor or pharmacy since removed from the lists stays chosen, named as such.

export function doctorOptions(doctors: readonly LocalDoctor[], chosen: string): Option[] {
  const options = doctors.map((doctor) => ({
    value: doctor.doctor_id,
    label: `${doctor.name} (${doctor.speciality})`,
  }));
  if (chosen && !doctors.some((doctor) => doctor.doctor_id === chosen))
    options.push({ value: chosen, label: 'A doctor no longer in the list' });
  return options;
}

export function pharmacyOptions(pharmacies: readonly MyPharmacy[], chosen: string): Option[] {
  const options = pharmacies.map((pharmacy) => ({
    value: pharmacy.pharmacy_id,
    label: pharmacy.city ? `${pharmacy.name}, ${pharmacy.city}` : pharmacy.name,
  }));
  if (chosen && !pharmacies.some((pharmacy) => pharmacy.pharmacy_id === chosen))
    options.push({ value: chosen, label: 'A pharmacy no longer in the list' });
  return options;
}

/** What the directions say about the dose times, and whether the times shown are theirs or the person's. */
export function directionsSuggestion(
  directions: string,
  reading: DirectionsReading,
  timesEdited: boolean,
): string {
  if (!directions.trim()) return '';
  if (!reading.understood) return 'The directions do not say the times clearly: choose them below.';
  return timesEdited
    ? `The directions read as: ${reading.summary}. The times below are the ones you chose.`
    : `From the directions: ${reading.summary}.`;
}
