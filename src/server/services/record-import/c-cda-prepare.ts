import { PARTIAL_DATE_MARK } from './fhir-common';
import { isObject, listAt, objectAt, textAt, type Json } from './json';

// What Medplum's C-CDA converter gets wrong in ways that matter to a person, put right in the parsed
// document before it converts (c-cda.ts):
// - A discharge summary's medicines: its Hospital Discharge Medications section (and Admission
//   Medications) wraps each medication activity in an act, and the converter reads the activities of the
//   Medications section only. Those sections get the Medications section's template, their activities
//   unwrapped.
// - Statements that something is absent (negationInd="true": "no known allergy to penicillin", "no history
//   of asthma", "not taking aspirin"): the converter ignores the flag and would make each a record of the
//   very thing it denies. They are left out and counted.
// - A concern (an allergy or problem act) that holds several observations: the converter keeps the first
//   only. Each observation becomes a concern of its own.
// - A date given as a year or a month alone ('1999', '199911'): the converter pads it to the 1st of
//   January, a day the document never said. It is written as the 1st of its month (or year) at a time
//   with a marked fraction of a second (fhir-common.ts, PARTIAL_DATE_MARK), read back as its precision.
// - A medicine taken as needed (a precondition: "PRN wheezing"): the converter drops the precondition, and
//   the medicine would be scheduled round the clock, each dose then counted missed. Its text becomes
//   'as needed' (and what for), which the converter keeps as the dosage's text and the mapping reads
//   beside the timing (fhir-medicines.ts).

const MEDICATIONS_SECTION = '2.16.840.1.113883.10.20.22.2.1.1';
const WRAPPED_MEDICATION_SECTIONS = new Set([
  '2.16.840.1.113883.10.20.22.2.11', // Hospital Discharge Medications
  '2.16.840.1.113883.10.20.22.2.11.1', // Hospital Discharge Medications (entries required)
  '2.16.840.1.113883.10.20.22.2.44', // Admission Medications
]);
const STATEMENTS = ['act', 'observation', 'substanceAdministration', 'procedure', 'organizer', 'encounter'];

type Mutable = Record<string, unknown>;

const sectionsOf = (ccda: Json) =>
  listAt(objectAt(objectAt(ccda, 'component'), 'structuredBody'), 'component').flatMap((component) =>
    listAt(component, 'section'),
  );
const rootsOf = (holder: Json) => listAt(holder, 'templateId').map((id) => textAt(id, '@_root') ?? '');
const negated = (statement: Json) => textAt(statement, '@_negationInd')?.toLowerCase() === 'true';

function unwrapMedications(section: Json): void {
  if (!rootsOf(section).some((root) => WRAPPED_MEDICATION_SECTIONS.has(root))) return;
  const activities = listAt(section, 'entry').flatMap((entry) =>
    listAt(entry, 'act').flatMap((act) =>
      listAt(act, 'entryRelationship').flatMap((relation) => listAt(relation, 'substanceAdministration')),
    ),
  );
  const writable = section as Mutable;
  writable.templateId = [{ '@_root': MEDICATIONS_SECTION }];
  writable.entry = activities.map((activity) => ({ substanceAdministration: [activity] }));
}

/** Whether an entry states an absence: its statement, or (a concern) the observation it is about. */
function statesAbsence(entry: Json): boolean {
  return STATEMENTS.some((kind) =>
    listAt(entry, kind).some(
      (statement) =>
        negated(statement) ||
        (kind === 'act' &&
          listAt(statement, 'entryRelationship').some(
            (relation) =>
              textAt(relation, '@_typeCode') === 'SUBJ' && listAt(relation, 'observation').some(negated),
          )),
    ),
  );
}

/** The observations a concern is about: an allergy or intolerance, or a problem. */
const CONCERN_SUBJECTS = new Set(['2.16.840.1.113883.10.20.22.4.7', '2.16.840.1.113883.10.20.22.4.4']);
const isConcernSubject = (relation: Json) =>
  textAt(relation, '@_typeCode') === 'SUBJ' &&
  listAt(relation, 'observation').some((observation) =>
    rootsOf(observation).some((root) => CONCERN_SUBJECTS.has(root)),
  );

/** A concern act about several allergies or problems as one entry for each. */
function splitConcerns(entry: Json): Json[] {
  const [act, ...others] = listAt(entry, 'act');
  const relations = listAt(act, 'entryRelationship');
  const subjects = relations.filter(isConcernSubject);
  if (!act || others.length > 0 || subjects.length < 2) return [entry];
  const rest = relations.filter((relation) => !isConcernSubject(relation));
  return subjects.map((subject) => ({ ...entry, act: [{ ...act, entryRelationship: [subject, ...rest] }] }));
}

/** 'as needed', and what for when the precondition names it ('as needed for wheezing'). */
function asNeededText(activity: Json): string | null {
  // The parser gives a lone element as an object, several as a list.
  const given = activity.precondition;
  const preconditions = Array.isArray(given)
    ? listAt(activity, 'precondition')
    : isObject(given)
      ? [given]
      : [];
  if (preconditions.length === 0) return null;
  const reason = preconditions
    .map((precondition) => textAt(objectAt(objectAt(precondition, 'criterion'), 'value'), '@_displayName'))
    .find((name) => name !== undefined);
  return reason ? `as needed for ${reason.toLowerCase()}` : 'as needed';
}

function markAsNeeded(section: Json): void {
  for (const entry of listAt(section, 'entry'))
    for (const activity of listAt(entry, 'substanceAdministration')) {
      const text = asNeededText(activity);
      if (text) (activity as Mutable).text = text;
    }
}

/** The elements of a statement that hold its time. */
const TIME_PARTS = new Set(['effectiveTime', 'low', 'high', 'center', 'time']);

/** Marks every year- or month-only time in a section (see PARTIAL_DATE_MARK). */
function markPartialDates(node: unknown, depth = 0): void {
  if (depth > 60) return;
  if (Array.isArray(node)) {
    for (const item of node) markPartialDates(item, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (TIME_PARTS.has(key))
      for (const time of Array.isArray(value) ? value : [value]) {
        const given = textAt(time, '@_value');
        if (isObject(time) && given && /^\d{4}(\d{2})?$/.test(given))
          (time as Mutable)['@_value'] =
            given.length === 4
              ? `${given}0101000000${PARTIAL_DATE_MARK.year}`
              : `${given}01000000${PARTIAL_DATE_MARK.month}`;
      }
    markPartialDates(value, depth + 1);
  }
}

/** Puts the document right for the converter; answers how many entries stated an absence (left out). */
export function prepareForConverter(ccda: Json): { negated: number } {
  let absent = 0;
  for (const section of sectionsOf(ccda)) {
    unwrapMedications(section);
    markAsNeeded(section);
    markPartialDates(section);
    const kept: Json[] = [];
    for (const entry of listAt(section, 'entry')) {
      if (!isObject(entry)) continue;
      if (statesAbsence(entry)) absent += 1;
      else kept.push(...splitConcerns(entry));
    }
    if (Array.isArray((section as Mutable).entry)) (section as Mutable).entry = kept;
  }
  return { negated: absent };
}
