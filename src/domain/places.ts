// Links for a place of the provider directory (a doctor's practice, a pharmacy): its address on one line,
// a map search for it and a phone number to call. Every screen that shows a place uses these.

export type Place = { address: string; city: string; state: string; zip: string };

/** One line of an address: '12 Main St, New York, NY 10001'. */
export function addressLine(place: Place): string {
  return `${place.address}, ${place.city}, ${place.state} ${place.zip.slice(0, 5)}`;
}

/** A map search for the address (opens the maps app on a phone). */
export function mapHref(place: Place): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(addressLine(place))}`;
}

/** A phone as shown ('(212) 555-0100') as a tel: link's target, with the US country code. */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `tel:+1${digits}` : `tel:${digits}`;
}
