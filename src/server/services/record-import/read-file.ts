import { XMLValidator } from 'fast-xml-parser';
import { IMPORT_MAX_ENTRIES, IMPORT_MESSAGES } from '../../../domain/record-import';

/** The clinical statements (observations, medicine and procedure activities...) one C-CDA document may hold. */
const IMPORT_MAX_STATEMENTS = 4 * IMPORT_MAX_ENTRIES;
import { convertCcda } from './c-cda';
import { ResourceIndex } from './fhir-common';
import { previewFromFhir, type PreviewFound } from './fhir-to-kincare';
import { isObject, listAt, textAt, type Json } from './json';
import { RecordFileRefusal } from './refusal';

// A record file as a person's portal gives it, read into what Kincare keeps (fhir-to-kincare.ts). What is
// refused, with a sentence, before any parser sees it: bytes that are not UTF-8 text, XML that declares a
// DOCTYPE (entity expansion, a "billion laughs", and external entities, which a parser could fetch: a
// portal's C-CDA never declares one), XML that is not a ClinicalDocument, JSON that is not FHIR, and more
// entries than IMPORT_MAX_ENTRIES (counted in the text first, so an enormous document is not parsed).

const M = IMPORT_MESSAGES;

/** The file as text: UTF-8, or UTF-16 when it starts with that encoding's byte order mark (some exports do). */
function textOf(bytes: Uint8Array): string {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : 'utf-8';
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new RecordFileRefusal(400, M.notUtf8);
  }
}

async function readCcda(xml: string): Promise<PreviewFound> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new RecordFileRefusal(400, M.entitiesRefused);
  if (!/<(?:[\w.-]+:)?ClinicalDocument[\s>]/.test(xml)) throw new RecordFileRefusal(400, M.notRecognised);
  // Entries, and the statements inside them (a result organizer holds many observations): each becomes
  // at least one resource, so both are counted before anything is parsed.
  const count = (pattern: RegExp) => xml.match(pattern)?.length ?? 0;
  if (
    count(/<(?:[\w.-]+:)?entry[\s/>]/g) > IMPORT_MAX_ENTRIES ||
    count(/<(?:[\w.-]+:)?(?:observation|substanceAdministration|act|procedure|encounter|organizer)[\s/>]/g) >
      IMPORT_MAX_STATEMENTS
  )
    throw new RecordFileRefusal(413, M.tooManyEntries);
  if (XMLValidator.validate(xml) !== true) throw new RecordFileRefusal(400, M.brokenXml);
  const { bundle, header, unreadableSections, negated } = await convertCcda(xml);
  const resources = listAt(bundle, 'entry').flatMap((entry) => {
    const resource = entry.resource;
    return isObject(resource) ? [resource] : [];
  });
  const found = previewFromFhir('ccda', resources, new ResourceIndex(resources), bundle);
  // The converter fills a header the document left out ("Medical Summary", today, "Medplum"): not the file's.
  const { source } = found;
  return {
    ...found,
    skipped: [
      ...found.skipped,
      ...(unreadableSections > 0
        ? [{ what: 'Sections of the document Kincare could not read', count: unreadableSections }]
        : []),
      ...(negated > 0
        ? [
            {
              what: 'Statements that something is absent or was not done (no allergy to, a vaccine not given)',
              count: negated,
            },
          ]
        : []),
    ],
    source: {
      ...source,
      title: header.title ? source.title : null,
      date: header.date ? source.date : null,
      author: header.author ? source.author : null,
    },
  };
}

/** The resources of a FHIR file: a Bundle's entries (and those of the Bundles inside it), or one resource. */
function resourcesOf(root: Json): { resources: Json[]; fullUrls: (string | undefined)[] } {
  const resources: Json[] = [];
  const fullUrls: (string | undefined)[] = [];
  const visit = (resource: Json, fullUrl: string | undefined, depth: number) => {
    if (textAt(resource, 'resourceType') !== 'Bundle') {
      resources.push(resource);
      fullUrls.push(fullUrl);
      if (resources.length > IMPORT_MAX_ENTRIES) throw new RecordFileRefusal(413, M.tooManyEntries);
      return;
    }
    if (depth > 2) return;
    for (const entry of listAt(resource, 'entry')) {
      const inner = entry.resource;
      if (isObject(inner) && typeof inner.resourceType === 'string')
        visit(inner, textAt(entry, 'fullUrl'), depth + 1);
    }
  };
  visit(root, undefined, 0);
  return { resources, fullUrls };
}

/**
 * The JSON of a FHIR file: one resource or Bundle, or NDJSON (a resource per line, as bulk exports
 * write them), read as a collection.
 */
function fhirRoot(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    const lines = json.split(/\r?\n/).filter((line) => line.trim() !== '');
    if (lines.length < 2) throw new RecordFileRefusal(400, M.brokenJson);
    if (lines.length > IMPORT_MAX_ENTRIES) throw new RecordFileRefusal(413, M.tooManyEntries);
    try {
      return {
        resourceType: 'Bundle',
        type: 'collection',
        entry: lines.map((line) => ({ resource: JSON.parse(line) as unknown })),
      };
    } catch {
      throw new RecordFileRefusal(400, M.brokenJson);
    }
  }
}

function readFhir(json: string, zone: string | undefined): PreviewFound {
  const root = fhirRoot(json);
  if (!isObject(root) || typeof root.resourceType !== 'string' || !/^[A-Z][A-Za-z]+$/.test(root.resourceType))
    throw new RecordFileRefusal(400, M.notRecognised);
  // FHIR R4 says which version in fhirVersion of a CapabilityStatement only; a file of another version
  // shows itself by its shapes. What matters here: DSTU2's MedicationOrder is not R4.
  if (root.resourceType === 'MedicationOrder') throw new RecordFileRefusal(400, M.fhirNotR4);
  const { resources, fullUrls } = resourcesOf(root);
  return previewFromFhir('fhir', resources, new ResourceIndex(resources, fullUrls, zone), root);
}

/**
 * What a record file holds, in Kincare's shapes; a RecordFileRefusal with a plain sentence when it cannot
 * be read. `zone`: the patient's, for the days of a FHIR file's UTC instants.
 */
export async function readRecordFile(bytes: Uint8Array, zone?: string): Promise<PreviewFound> {
  const text = textOf(bytes).replace(/^\uFEFF/, '');
  const start = text.trimStart().charAt(0);
  if (start === '<') return readCcda(text);
  if (start === '{') return readFhir(text, zone);
  throw new RecordFileRefusal(400, M.notRecognised);
}
