import { doseTimesFromDirections } from '../../../domain/directions';
import { readPrescriptionLabel } from '../../../domain/prescription-label';
import type { PrescriptionForm, PrescriptionStatus } from '../../../domain/prescriptions';
import type { ImportedPrescription } from '../../../domain/record-import';
import { codeIn, conceptText, RXNORM, statusIs, type ResourceIndex } from './fhir-common';
import { listAt, numberAt, objectAt, textAt, type Json } from './json';

// A MedicationRequest or MedicationStatement as a Kincare prescription: the medicine's name, strength and
// form from its coded name (RxNorm's 'Atenolol 25 MG Oral Tablet', read as a label is), the directions as
// written (or, when the file gives only a timing, that timing in words) and the dose times they imply.

const MEDICATION_STATUS: Record<string, PrescriptionStatus> = {
  active: 'active',
  intended: 'active',
  'on-hold': 'on_hold',
  completed: 'completed',
  stopped: 'discontinued',
  cancelled: 'discontinued',
  'not-taken': 'discontinued',
};

const FORM_WORDS: readonly [RegExp, PrescriptionForm][] = [
  [/inhal|actuat|aerosol|nebuli/i, 'inhaler'],
  [/inject|syringe|pen injector|prefilled/i, 'injection'],
  [/capsule/i, 'capsule'],
  [/tablet|caplet/i, 'tablet'],
  [/drop|ophthalmic|otic/i, 'drops'],
  [/patch|transdermal/i, 'patch'],
  [/cream|ointment|gel|lotion|topical/i, 'cream'],
  [/solution|suspension|syrup|elixir|liquid/i, 'liquid'],
];

function formOf(...texts: (string | undefined)[]): PrescriptionForm {
  const text = texts.filter(Boolean).join(' ');
  return FORM_WORDS.find(([words]) => words.test(text))?.[1] ?? 'other';
}

const PERIOD_WORDS: Record<string, string> = { h: 'hours', d: 'days', wk: 'weeks' };
/** FHIR's event timing codes (Timing.repeat.when) in the words the directions reader knows. */
const WHEN_WORDS: Record<string, string> = {
  MORN: 'in the morning',
  'MORN.early': 'in the morning',
  'MORN.late': 'in the morning',
  NOON: 'at noon',
  AFT: 'in the afternoon',
  EVE: 'in the evening',
  NIGHT: 'at night',
  HS: 'at bedtime',
  WAKE: 'on waking',
  C: 'with meals',
  CM: 'with breakfast',
  CD: 'with lunch',
  CV: 'with dinner',
  AC: 'before meals',
  PC: 'after meals',
};

/** A dosage's timing in words the directions reader knows ('2 times a day', 'every 8 hours', 'at bedtime'). */
function timingWords(timing: Json | undefined): string | undefined {
  const repeat = objectAt(timing, 'repeat');
  const when = (Array.isArray(repeat?.when) ? repeat.when : []).flatMap((code) =>
    typeof code === 'string' && WHEN_WORDS[code] ? [WHEN_WORDS[code]] : [],
  );
  if (when.length > 0) return [...new Set(when)].join(' and ');
  const frequency = numberAt(repeat, 'frequency') ?? 1;
  const period = numberAt(repeat, 'period');
  const unit = textAt(repeat, 'periodUnit');
  if (period === undefined || !unit) return textAt(objectAt(timing, 'code'), 'text');
  if (unit === 'd' && period === 1) return `${frequency} times a day`;
  if (unit === 'h' && frequency === 1) return `every ${period} hours`;
  const words = PERIOD_WORDS[unit];
  return words ? `${frequency} times every ${period} ${words}` : undefined;
}

/** The dose times a timing names itself (`timeOfDay`: '07:00:00'), as 'HH:mm', sorted; none when it names none. */
function timesOfDay(timing: Json | undefined): string[] {
  const given = objectAt(timing, 'repeat')?.timeOfDay;
  const times = (Array.isArray(given) ? given : []).flatMap((time) =>
    typeof time === 'string' && /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(time) ? [time.slice(0, 5)] : [],
  );
  return [...new Set(times)].sort();
}

/**
 * A medicine the file says the person takes or took; a plan, a proposal, an order not to take it, or one
 * entered in error is not one. `format`: in a C-CDA document the converter puts the medicine's own
 * period where FHIR keeps how long a prescription may be filled (dispenseRequest.validityPeriod), so
 * only there is that period's end the medicine's.
 */
export function readMedication(
  resource: Json,
  index: ResourceIndex,
  format: 'ccda' | 'fhir',
): ImportedPrescription | null {
  if (statusIs(resource, 'entered-in-error', 'draft')) return null;
  if (['plan', 'proposal'].includes(textAt(resource, 'intent') ?? '') || resource.doNotPerform === true)
    return null;
  const reference = objectAt(resource, 'medicationReference');
  const medication = reference ? index.resolve(reference, resource) : undefined;
  const concept = objectAt(resource, 'medicationCodeableConcept') ?? objectAt(medication, 'code');
  const named = conceptText(concept) ?? textAt(reference, 'display');
  if (!named) return null;
  const dosage = listAt(resource, 'dosageInstruction')[0] ?? listAt(resource, 'dosage')[0];
  const timing = timingWords(objectAt(dosage, 'timing'));
  const text = textAt(dosage, 'text') ?? textAt(dosage, 'patientInstruction');
  // 'as needed' alone (a C-CDA precondition, c-cda-prepare.ts) says when, not how often: the timing too.
  const directions = (text?.startsWith('as needed') && timing ? `${timing} ${text}` : (text ?? timing)) ?? '';
  const reading = directions ? doseTimesFromDirections(directions) : undefined;
  const ownTimes = timesOfDay(objectAt(dosage, 'timing'));
  const label = readPrescriptionLabel(named);
  const validity = objectAt(objectAt(resource, 'dispenseRequest'), 'validityPeriod');
  const period = objectAt(resource, 'effectivePeriod') ?? validity;
  const start =
    index.dayOf(textAt(period, 'start')) ??
    index.dayOf(textAt(resource, 'effectiveDateTime')) ??
    index.dayOf(textAt(resource, 'authoredOn'));
  return {
    // The label reader splits 'Atenolol 25 MG Oral Tablet' into name and strength; when it finds no
    // strength its name may have lost words, so the file's name is kept whole.
    medicine_name: (label.strength && label.medicine_name) || named,
    strength: label.strength ?? '',
    form: label.form ?? formOf(named, conceptText(objectAt(medication, 'form'))),
    directions: directions.slice(0, 500),
    times: ownTimes.length > 0 ? ownTimes : reading?.understood ? reading.times : [],
    as_needed:
      (reading?.understood === true && reading.asNeeded) ||
      objectAt(dosage, 'asNeededCodeableConcept') !== undefined ||
      dosage?.asNeededBoolean === true,
    start_date: start,
    end_date: period === validity && format === 'fhir' ? null : index.dayOf(textAt(period, 'end')),
    status: MEDICATION_STATUS[textAt(resource, 'status') ?? ''] ?? 'active',
    rxnorm: codeIn(concept, RXNORM) ?? null,
  };
}
