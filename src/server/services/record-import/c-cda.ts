import { installWebSocketConstants } from './websocket-global';
import { IMPORT_MESSAGES } from '../../../domain/record-import';
import { isObject, listAt, objectAt, textAt, type Json } from './json';
import { RecordFileRefusal } from './refusal';

// A C-CDA document (R2.1 or R1.1) to a FHIR document Bundle, by Medplum's converter (@medplum/ccda),
// kept to one place so that the rest of the import reads FHIR only.
//
// What the converter leaves out and people need: the medicines of a discharge summary. Its Hospital
// Discharge Medications section (and Admission Medications) wraps each medication activity in an act;
// the converter reads medication activities of the Medications section only. So before converting, those
// sections are given the Medications section's template and their activities unwrapped. Sections the
// converter does not know are skipped, not refused (`ignoreUnsupportedSections`).

const MEDICATIONS_SECTION = '2.16.840.1.113883.10.20.22.2.1.1';
const WRAPPED_MEDICATION_SECTIONS = new Set([
  '2.16.840.1.113883.10.20.22.2.11', // Hospital Discharge Medications
  '2.16.840.1.113883.10.20.22.2.11.1', // Hospital Discharge Medications (entries required)
  '2.16.840.1.113883.10.20.22.2.44', // Admission Medications
]);

type Mutable = Record<string, unknown>;

function unwrapMedicationSections(ccda: Json): void {
  const body = objectAt(objectAt(ccda, 'component'), 'structuredBody');
  for (const component of listAt(body, 'component')) {
    for (const section of listAt(component, 'section')) {
      const roots = listAt(section, 'templateId').map((id) => textAt(id, '@_root'));
      if (!roots.some((root) => root && WRAPPED_MEDICATION_SECTIONS.has(root))) continue;
      const activities = listAt(section, 'entry').flatMap((entry) =>
        listAt(entry, 'act').flatMap((act) =>
          listAt(act, 'entryRelationship').flatMap((relation) => listAt(relation, 'substanceAdministration')),
        ),
      );
      const writable = section as Mutable;
      writable.templateId = [{ '@_root': MEDICATIONS_SECTION }];
      writable.entry = activities.map((activity) => ({ substanceAdministration: [activity] }));
    }
  }
}

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
 * The document as a FHIR Bundle (JSON), and how many of its sections could not be read; a
 * RecordFileRefusal when the converter cannot read it at all.
 */
export async function convertCcda(
  xml: string,
): Promise<{ bundle: Json; header: CcdaHeader; unreadableSections: number }> {
  const { convertCcdaToFhir, convertXmlToCcda } = await converter();
  const convert: Convert = (ccda) => {
    const bundle: unknown = convertCcdaToFhir(ccda, { ignoreUnsupportedSections: true });
    if (!isObject(bundle)) throw new Error('no bundle');
    return bundle;
  };
  try {
    const ccda = convertXmlToCcda(xml);
    if (!isObject(ccda)) throw new Error('not a ClinicalDocument');
    unwrapMedicationSections(ccda);
    const header: CcdaHeader = {
      title: ccda.title !== undefined,
      date: ccda.effectiveTime !== undefined,
      author: ccda.author !== undefined && ccda.author.length > 0,
    };
    try {
      return { bundle: convert(ccda), header, unreadableSections: 0 };
    } catch {
      return { ...sectionBySection(ccda, convert), header };
    }
  } catch {
    // The converter's own words are about its code, not the person's file.
    throw new RecordFileRefusal(400, IMPORT_MESSAGES.unreadableDocument);
  }
}
