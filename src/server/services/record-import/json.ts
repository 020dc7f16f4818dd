// Reading untrusted JSON (a FHIR file as a person's portal made it, or what the C-CDA converter made of
// their XML) one field at a time: every accessor checks the type it answers, so a field of the wrong
// shape is absent, never a crash or a wrong value.

export type Json = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objectAt = (value: unknown, field: string): Json | undefined => {
  const inner = isObject(value) ? value[field] : undefined;
  return isObject(inner) ? inner : undefined;
};

export const listAt = (value: unknown, field: string): Json[] => {
  const inner = isObject(value) ? value[field] : undefined;
  return Array.isArray(inner) ? inner.filter(isObject) : [];
};

/** A non-empty string, trimmed, with its runs of white space made one space (XML text is often wrapped). */
export const textAt = (value: unknown, field: string): string | undefined => {
  const inner = isObject(value) ? value[field] : undefined;
  if (typeof inner !== 'string') return undefined;
  const text = inner.replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
};

export const numberAt = (value: unknown, field: string): number | undefined => {
  const inner = isObject(value) ? value[field] : undefined;
  return typeof inner === 'number' && Number.isFinite(inner) ? inner : undefined;
};

export const booleanAt = (value: unknown, field: string): boolean | undefined => {
  const inner = isObject(value) ? value[field] : undefined;
  return typeof inner === 'boolean' ? inner : undefined;
};
