import { analyteByCode } from '../../../domain/lab-analytes';
import { labResultSchema, type LabFlag, type LabResult } from '../../../domain/lab-results';
import type { ImportedLabReport } from '../../../domain/record-import';
import {
  codeIn,
  codesOf,
  conceptText,
  effectiveOf,
  enteredInError,
  isLab,
  LOINC,
  practitionerName,
  statusIs,
  type ResourceIndex,
} from './fhir-common';
import { listAt, numberAt, objectAt, textAt, type Json } from './json';

// Lab observations as Kincare's lab reports: one row per result (its LOINC code, the value as the file
// gives it, the unit, the range, a flag), grouped into reports as the file groups them.

/** Kincare keeps at most this many rows in one lab report (labResultsSchema). */
const MAX_ROWS = 300;

const HIGH = new Set(['H', 'HH', 'HU', '>', 'AH']);
const LOW = new Set(['L', 'LL', 'LU', '<', 'AL']);

function quantityText(quantity: Json | undefined): string | undefined {
  const value = numberAt(quantity, 'value');
  if (value === undefined) return undefined;
  return `${textAt(quantity, 'comparator') ?? ''}${value}`;
}

function rangeText(range: Json | undefined): string {
  if (!range) return '';
  const text = textAt(range, 'text');
  if (text) return text;
  const low = numberAt(objectAt(range, 'low'), 'value');
  const high = numberAt(objectAt(range, 'high'), 'value');
  if (low !== undefined && high !== undefined) return `${low}-${high}`;
  if (high !== undefined) return `<=${high}`;
  if (low !== undefined) return `>=${low}`;
  return '';
}

/**
 * H or L: the file's interpretation, else a plain number against a numeric range the file gives (a value
 * with a comparator, '<10', is not compared: it says too little).
 */
function flagOf(observation: Json, quantity: Json | undefined): LabFlag {
  const codes = listAt(observation, 'interpretation').flatMap(codesOf);
  if (codes.some((code) => HIGH.has(code))) return 'H';
  if (codes.some((code) => LOW.has(code))) return 'L';
  const value = numberAt(quantity, 'value');
  if (codes.length > 0 || value === undefined || textAt(quantity, 'comparator')) return '';
  const range = listAt(observation, 'referenceRange')[0];
  const low = numberAt(objectAt(range, 'low'), 'value');
  const high = numberAt(objectAt(range, 'high'), 'value');
  if (high !== undefined && value > high) return 'H';
  if (low !== undefined && value < low) return 'L';
  return '';
}

function ratioText(ratio: Json | undefined): string | undefined {
  const numerator = numberAt(objectAt(ratio, 'numerator'), 'value');
  const denominator = numberAt(objectAt(ratio, 'denominator'), 'value');
  return numerator !== undefined && denominator !== undefined ? `${numerator}:${denominator}` : undefined;
}

/**
 * One result row, or null when the observation has no value (a panel, a result not yet in) or no name (a
 * bare code Kincare does not know is not shown as if it were one). A preliminary result is marked for review.
 */
export function readLabRow(observation: Json): LabResult | null {
  const loinc = codeIn(objectAt(observation, 'code'), LOINC);
  const name = conceptText(objectAt(observation, 'code')) ?? (loinc ? analyteByCode(loinc)?.name : undefined);
  const quantity = objectAt(observation, 'valueQuantity');
  const value =
    quantityText(quantity) ??
    textAt(observation, 'valueString') ??
    conceptText(objectAt(observation, 'valueCodeableConcept')) ??
    (typeof observation.valueInteger === 'number' ? String(observation.valueInteger) : undefined) ??
    ratioText(objectAt(observation, 'valueRatio')) ??
    (typeof observation.valueBoolean === 'boolean'
      ? observation.valueBoolean
        ? 'Positive'
        : 'Negative'
      : undefined);
  if (!name || !value) return null;
  const row = labResultSchema.safeParse({
    name: name.slice(0, 120),
    value,
    unit: textAt(quantity, 'unit') ?? textAt(quantity, 'code') ?? '',
    flag: flagOf(observation, quantity),
    reference_range: rangeText(listAt(observation, 'referenceRange')[0]),
    ...(loinc && /^\d{1,7}-\d$/.test(loinc) ? { code: loinc } : {}),
    ...(statusIs(observation, 'preliminary', 'registered') ? { needs_review: true } : {}),
  });
  return row.success ? row.data : null;
}

/**
 * Lab reports: each DiagnosticReport with its results, each panel (an observation with members, as a
 * C-CDA result organizer becomes) with its members, and the results left over grouped by day.
 */
export function readLabReports(
  resources: readonly Json[],
  index: ResourceIndex,
): { reports: ImportedLabReport[]; unread: number; withoutResults: number } {
  const reports: ImportedLabReport[] = [];
  const grouped = new Set<Json>();
  let unread = 0;
  /** Reports that name no result (imaging, pathology: a conclusion in words), counted, not kept. */
  let withoutResults = 0;
  const addGroup = (title: string | undefined, members: Json[], doctor: string | null, when?: string) => {
    const rows: LabResult[] = [];
    for (const member of members) {
      grouped.add(member);
      if (enteredInError(member) || statusIs(member, 'cancelled')) continue;
      const row = readLabRow(member);
      if (row) rows.push(row);
      else unread += 1;
    }
    const day =
      index.dayOf(when) ?? members.map((member) => index.dayOf(effectiveOf(member))).find(Boolean) ?? null;
    if (rows.length === 0 || !day) {
      unread += rows.length;
      return;
    }
    // A report holds at most MAX_ROWS rows in Kincare: a longer one is added in parts.
    for (let first = 0; first < rows.length; first += MAX_ROWS) {
      const part = rows.length > MAX_ROWS ? ` (part ${first / MAX_ROWS + 1})` : '';
      reports.push({
        report_date: day,
        report_type: `${(title ?? 'Lab results').slice(0, 100 - part.length)}${part}`,
        doctor_name: doctor,
        results: rows.slice(first, first + MAX_ROWS),
      });
    }
  };
  for (const report of resources.filter((resource) => resource.resourceType === 'DiagnosticReport')) {
    if (enteredInError(report)) continue;
    const members = index.resolveAll(listAt(report, 'result'), report);
    if (members.length === 0) {
      withoutResults += 1;
      continue;
    }
    const doctor = practitionerName(
      index,
      listAt(report, 'resultsInterpreter')[0] ?? listAt(report, 'performer')[0],
    );
    addGroup(
      conceptText(objectAt(report, 'code')),
      members,
      doctor,
      effectiveOf(report) ?? textAt(report, 'issued'),
    );
  }
  const observations = resources.filter((resource) => resource.resourceType === 'Observation');
  for (const panel of observations.filter(
    (observation) => isLab(observation) && listAt(observation, 'hasMember').length > 0,
  )) {
    if (grouped.has(panel)) continue;
    grouped.add(panel);
    const members = index.resolveAll(listAt(panel, 'hasMember'), panel);
    addGroup(
      conceptText(objectAt(panel, 'code')),
      members.filter((member) => !grouped.has(member)),
      null,
      effectiveOf(panel),
    );
  }
  const byDay = new Map<string, Json[]>();
  for (const observation of observations) {
    if (!isLab(observation) || grouped.has(observation) || listAt(observation, 'hasMember').length > 0)
      continue;
    if (enteredInError(observation)) continue;
    const day = index.dayOf(effectiveOf(observation)) ?? '';
    byDay.set(day, [...(byDay.get(day) ?? []), observation]);
  }
  for (const [day, members] of byDay) addGroup(undefined, members, null, day || undefined);
  return { reports, unread, withoutResults };
}
