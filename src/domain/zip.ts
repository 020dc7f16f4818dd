/** 5 digits means US, 6 digits means India, otherwise none. */
export type ZipCountry = 'US' | 'IN' | null;

export function guessZipCountry(zip: string): ZipCountry {
  const trimmed = zip.trim();
  if (/^\d{5}$/.test(trimmed)) return 'US';
  if (/^\d{6}$/.test(trimmed)) return 'IN';
  return null;
}

/** A US zip: five digits, optionally with the four-digit extension. */
export const US_ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
