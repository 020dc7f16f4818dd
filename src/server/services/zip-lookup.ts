import zipcodes from 'zipcodes';
import { AUTH_MESSAGES, type AddressBody } from '../../domain/auth';

// US address check against the `zipcodes` package's offline table (the US zip-to-location service,
// without a network call): the zip must exist, and the city and state must be the zip's.

export type ValidatedAddress = {
  address: string;
  city: string;
  state: string;
  zip_code: string;
  country: 'US';
};
export type AddressCheck = { ok: true; address: ValidatedAddress } | { ok: false; message: string };

// People write "St. Louis" or "Ft Lauderdale"; the table says "Saint Louis" and "Fort Lauderdale".
const CITY_ABBREVIATIONS: Record<string, string> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount' };

function normaliseCity(city: string): string {
  return city
    .toLowerCase()
    .replace(/\./g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => CITY_ABBREVIATIONS[word] ?? word)
    .join(' ');
}

/** A two-letter code, or the code of a full state name ("new york" -> "NY"); otherwise the input upper-cased. */
function normaliseState(state: string): string {
  const upper = state.trim().toUpperCase().replace(/\s+/g, ' ');
  return zipcodes.states.full[upper] ?? upper;
}

export function checkUsAddress(input: AddressBody): AddressCheck {
  const address = input.address.trim();
  const city = input.city.trim();
  const state = input.state.trim();
  const zip = input.zip_code.trim();
  const found = zipcodes.lookup(zip.slice(0, 5));
  if (!found || found.country !== 'US') return { ok: false, message: AUTH_MESSAGES.zipUnknown };
  if (normaliseCity(city) !== normaliseCity(found.city) || normaliseState(state) !== found.state) {
    return {
      ok: false,
      message: `Zip code ${zip.slice(0, 5)} is in ${found.city}, ${found.state}, not ${city}, ${state}.`,
    };
  }
  return {
    ok: true,
    address: { address, city: found.city, state: found.state, zip_code: zip, country: 'US' },
  };
}
