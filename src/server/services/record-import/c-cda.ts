import { installWebSocketConstants } from './websocket-global';
import { IMPORT_MESSAGES } from '../../../domain/record-import';
import { prepareForConverter } from './c-cda-prepare';
import { isObject, listAt, objectAt, textAt, type Json } from './json';
import { RecordFileRefusal } from './refusal';

// A C-CDA document (R2.1 or R1.1) to a FHIR document Bundle, by Medplum's converter (@medplum/ccda),
// kept to one place so that the rest of the import reads FHIR only.
//
// What the converter would get wrong is put right first (c-cda-prepare.ts). Sections the converter
// does not know are skipped, not refused (`ignoreUnsupportedSections`).

/** Which parts of the header the document itself gives. */
export type CcdaHeader = { title: boolean; date: boolean; author: boolean };

/** The converter, loaded on first use, after the constants it reads as it loads (websocket-global.ts). */
async function converter() {
  installWebSocketConstants();
  return import('@medplum/ccda');
}

type Ccda = ReturnType<Awaited<ReturnType<typeof converter>>['convertXmlToCcda']>;
type Convert = (ccda: Ccda) => Json;

const entriesOf = (bundle: Json) => listAt(bundle, 'entry');
const keyOf = (entry: Json) => {
  const resource = objectAt(entry, 'resource');
  return `${textAt(resource, 'resourceType') ?? ''}/${textAt(resource, 'id') ?? ''}`;
};

/**
 * The document read one section at a time, when reading it whole failed: a portal's document that breaks
 * the converter in one section (a section's entries without its template, a value of an unexpected shape)
 * still gives everything else. The header is read alone (a document whose header cannot be read is not
 * read at all); each section that fails is counted, and the sections that read join one Composition, so
 * what the document only plans is still known as such.
 */
function sectionBySection(ccda: Ccda, convert: Convert): { bundle: Json; unreadableSections: number } {
  const components = ccda.component?.structuredBody?.component ?? [];
  const only = (component: typeof components): Ccda => ({
    ...ccda,
    component: { ...ccda.component, structuredBody: { ...ccda.component?.structuredBody, component } },
  });
  const header = convert(only([]));
  const composition = objectAt(entriesOf(header)[0], 'resource');
  const sections: Json[] = [];
  const entries = new Map(entriesOf(header).map((entry) => [keyOf(entry), entry]));
  let unreadableSections = 0;
  for (const component of components) {
    let part: Json;
    try {
      part = convert(only([component]));
    } catch {
      unreadableSections += 1;
      continue;
    }
    sections.push(...listAt(objectAt(entriesOf(part)[0], 'resource'), 'section'));
    for (const entry of entriesOf(part).slice(1))
      if (!entries.has(keyOf(entry))) entries.set(keyOf(entry), entry);
  }
  const [first, ...rest] = [...entries.values()];
  const whole = { ...first, resource: { ...composition, section: sections } };
  return { bundle: { ...header, entry: [whole, ...rest] }, unreadableSections };
}

/**
 * The document as a FHIR Bundle (JSON), how many of its sections could not be read and how many of its
 * entries said something is absent (left out); a
 * RecordFileRefusal when the converter cannot read it at all.
 */
export async function convertCcda(
  xml: string,
): Promise<{ bundle: Json; header: CcdaHeader; unreadableSections: number; negated: number }> {
  const { convertCcdaToFhir, convertXmlToCcda } = await converter();
  const convert: Convert = (ccda) => {
    const bundle: unknown = convertCcdaToFhir(ccda, { ignoreUnsupportedSections: true });
    if (!isObject(bundle)) throw new Error('no bundle');
    return bundle;
  };
  try {
    const ccda = convertXmlToCcda(xml);
    if (!isObject(ccda)) throw new Error('not a ClinicalDocument');
    const { negated } = prepareForConverter(ccda);
    const header: CcdaHeader = {
      title: ccda.title !== undefined,
      date: ccda.effectiveTime !== undefined,
      author: ccda.author !== undefined && ccda.author.length > 0,
    };
    try {
      return { bundle: convert(ccda), header, unreadableSections: 0, negated };
    } catch {
      return { ...sectionBySection(ccda, convert), header, negated };
    }
  } catch {
    // The converter's own words are about its code, not the person's file.
    throw new RecordFileRefusal(400, IMPORT_MESSAGES.unreadableDocument);
  }
}
