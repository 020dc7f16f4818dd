// Links for a place of the directory. The same three helpers live in features/doctors/use-my-doctors.ts
// (and appointments has its own): a feature may not import another feature, and the shared home (ui/ or
// domain/) is another writer's. They belong together there; until then keep the three copies identical.

type Place = { address: string; city: string; state: string; zip: string };

/** A phone as shown ('(212) 555-0100') as a tel: link's target, with the US country code. */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `tel:+1${digits}` : `tel:${digits}`;
}

/** A map search for a pharmacy's address (opens the maps app on a phone). */
export function mapHref(place: Place): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(addressLine(place))}`;
}

/** One line of an address: '12 Main St, New York, NY 10001'. */
export function addressLine(place: Place): string {
  return `${place.address}, ${place.city}, ${place.state} ${place.zip.slice(0, 5)}`;
}
