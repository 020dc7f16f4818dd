import { DateTime } from 'luxon';
import { partialDateSchema } from '../../../domain/medical-history-fields';
import { listAt, objectAt, textAt, type Json } from './json';

// What every reader of a FHIR file's resources shares: resolving references, the words of a code, dates
// as Kincare keeps them, and whether a resource was withdrawn.

export const LOINC = 'http://loinc.org';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/**
 * Resolves a reference (`Type/id`, `urn:uuid:...`, `#contained`) to a resource of the file, and reads the
 * file's days (`dayOf`) in the patient's zone where the file gives UTC instants.
 */
export class ResourceIndex {
  private readonly byKey = new Map<string, Json>();

  constructor(
    resources: readonly Json[],
    fullUrls: readonly (string | undefined)[] = [],
    /** The patient's zone, for a FHIR file's UTC instants; none for a C-CDA document (see dayIn). */
    private readonly zone?: string,
  ) {
    resources.forEach((resource, index) => {
      const type = textAt(resource, 'resourceType');
      const id = textAt(resource, 'id');
      if (type && id) this.byKey.set(`${type}/${id}`, resource);
      const fullUrl = fullUrls[index];
      if (fullUrl) this.byKey.set(fullUrl, resource);
    });
  }

  resolve(reference: unknown, within?: Json): Json | undefined {
    // A version's address (`Observation/1/_history/2`) names the resource itself.
    const target = textAt(reference, 'reference')?.replace(/\/_history\/[^/]+$/, '');
    if (!target) return undefined;
    if (target.startsWith('#'))
      return listAt(within, 'contained').find((inner) => textAt(inner, 'id') === target.slice(1));
    return this.byKey.get(target) ?? this.byKey.get(target.split('/').slice(-2).join('/'));
  }

  /** The day of a date or time as the patient lived it (dayIn). */
  dayOf(dateTime: string | undefined): string | null {
    return dayIn(dateTime, this.zone);
  }

  /** The resources these references name, those that resolve, each once. */
  resolveAll(references: readonly Json[], within?: Json): Json[] {
    // Each once: a file that names one result a thousand times must not make a thousand rows.
    const found = new Set<Json>();
    for (const reference of references) {
      const resource = this.resolve(reference, within);
      if (resource) found.add(resource);
    }
    return [...found];
  }
}

/**
 * What a CodeableConcept says to a person: its text, else its first coding's display. A bare code is not
 * a name ('197361' shown as a medicine would say nothing true): undefined, and the item is counted as not
 * readable.
 */
export function conceptText(concept: unknown): string | undefined {
  const text = textAt(concept, 'text');
  if (text) return text;
  for (const coding of listAt(concept, 'coding')) {
    const display = textAt(coding, 'display');
    if (display) return display;
  }
  return undefined;
}

export function codeIn(concept: unknown, system: string): string | undefined {
  return listAt(concept, 'coding')
    .filter((coding) => textAt(coding, 'system') === system)
    .map((coding) => textAt(coding, 'code'))
    .find((code) => code !== undefined);
}

export const codesOf = (concept: unknown): string[] =>
  listAt(concept, 'coding').flatMap((coding) => textAt(coding, 'code') ?? []);

/**
 * A C-CDA date the document gives as a month or a year alone: the converter would pad it to the 1st of
 * January, so c-cda-prepare.ts writes it with these fractions of a second, which no real time carries,
 * and they are read back here as the precision the document gave.
 */
export const PARTIAL_DATE_MARK = { month: '.001', year: '.002' } as const;

/** A date as a history entry keeps it (YYYY, YYYY-MM or YYYY-MM-DD, real and not in the future), or null. */
export function partialDateOf(dateTime: string | undefined): string | null {
  const match = dateTime ? /^\d{4}(?:-\d{2}(?:-\d{2})?)?/.exec(dateTime) : null;
  if (!match || !dateTime) return null;
  const precise = dateTime.endsWith(`T00:00:00${PARTIAL_DATE_MARK.year}`)
    ? match[0].slice(0, 4)
    : dateTime.endsWith(`T00:00:00${PARTIAL_DATE_MARK.month}`)
      ? match[0].slice(0, 7)
      : match[0];
  return partialDateSchema.safeParse(precise).success ? precise : null;
}

/** YYYY-MM-DD of a full date, as written in the file (the date where it happened), or null. */
export function dayOf(dateTime: string | undefined): string | null {
  const day = partialDateOf(dateTime);
  return day && day.length === 10 ? day : null;
}

/**
 * The day of a date or time where it happened. A time with its own offset is that place's day, as written;
 * a UTC instant (many FHIR servers write every time so) is the day in the patient's zone: a 9 pm draw in
 * New York written '...T02:00:00Z' was that evening's, not the next day's. (A C-CDA document's date alone
 * reaches here as midnight UTC, so no zone is given for those.)
 */
export function dayIn(dateTime: string | undefined, zone: string | undefined): string | null {
  if (zone && dateTime && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|\+00:00)$/.test(dateTime)) {
    const local = DateTime.fromISO(dateTime, { setZone: true }).setZone(zone);
    if (local.isValid) return dayOf(local.toISODate() ?? undefined);
  }
  return dayOf(dateTime);
}

export const statusIs = (resource: Json, ...statuses: string[]) =>
  statuses.includes(textAt(resource, 'status') ?? '');
export const enteredInError = (resource: Json) =>
  statusIs(resource, 'entered-in-error') ||
  ['entered-in-error', 'refuted'].some((code) =>
    codesOf(objectAt(resource, 'verificationStatus')).includes(code),
  );

export const categoryCodes = (resource: Json) => listAt(resource, 'category').flatMap(codesOf);
export const isLab = (resource: Json) => categoryCodes(resource).includes('laboratory');
export const effectiveOf = (resource: Json) =>
  textAt(resource, 'effectiveDateTime') ??
  textAt(resource, 'effectiveInstant') ??
  textAt(objectAt(resource, 'effectivePeriod'), 'start');

export function practitionerName(index: ResourceIndex, reference: Json | undefined): string | null {
  const display = textAt(reference, 'display');
  if (display) return display;
  const practitioner = index.resolve(reference);
  const name = listAt(practitioner, 'name')[0];
  if (!name) return null;
  const given = (Array.isArray(name.given) ? name.given : []).filter((part) => typeof part === 'string');
  return textAt(name, 'text') ?? ([...given, textAt(name, 'family')].filter(Boolean).join(' ') || null);
}
