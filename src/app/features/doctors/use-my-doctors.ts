import { useLiveQuery } from 'dexie-react-hooks';
import { hasUserDb, userDb, type LocalDoctor } from '../../../local/db';

// Reads for the doctors screen: the patient's list from the device's table (works offline), never the
// network. Undefined while the first read runs, so the screen does not flash "no doctors".

export function useMyDoctors(patientId: string | null): LocalDoctor[] | undefined {
  return useLiveQuery(async () => {
    if (!patientId || !hasUserDb()) return [];
    const rows = await userDb().doctors.where('patient_id').equals(patientId).toArray();
    return rows.sort((a, b) => a.name.localeCompare(b.name));
  }, [patientId]);
}

/** A phone as shown ('(212) 555-0100') as a tel: link's target, with the US country code. */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `tel:+1${digits}` : `tel:${digits}`;
}

/** A map search for a practice's address (opens the maps app on a phone). */
export function mapHref(place: { address: string; city: string; state: string; zip: string }): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(addressLine(place))}`;
}

/** One line of an address: '12 Main St, New York, NY 10001'. */
export function addressLine(place: { address: string; city: string; state: string; zip: string }): string {
  return `${place.address}, ${place.city}, ${place.state} ${place.zip.slice(0, 5)}`;
}
