import { labResultSchema, type LabFlag, type LabResult } from '../../../domain/lab-results';
import type { ImportedLabReport } from '../../../domain/record-import';
import {
  codeIn,
  codesOf,
  conceptText,
  dayOf,
  effectiveOf,
  enteredInError,
  isLab,
  LOINC,
  practitionerName,
  type ResourceIndex,
} from './fhir-common';
import { listAt, numberAt, objectAt, textAt, type Json } from './json';

// Lab observations as Kincare's lab reports: one row per result (its LOINC code, the value as the file
// gives it, the unit, the range, a flag), grouped into reports as the file groups them.

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

/** H or L: the file's interpretation, else the value against a numeric range the file gives. */
function flagOf(observation: Json, value: number | undefined): LabFlag {
  const codes = listAt(observation, 'interpretation').flatMap(codesOf);
  if (codes.some((code) => HIGH.has(code))) return 'H';
  if (codes.some((code) => LOW.has(code))) return 'L';
  if (codes.length > 0 || value === undefined) return '';
  const range = listAt(observation, 'referenceRange')[0];
  const low = numberAt(objectAt(range, 'low'), 'value');
  const high = numberAt(objectAt(range, 'high'), 'value');
  if (high !== undefined && value > high) return 'H';
  if (low !== undefined && value < low) return 'L';
  return '';
}

/** One result row, or null when the observation has no value (a panel, a result not yet in). */
export function readLabRow(observation: Json): LabResult | null {
  const name = conceptText(objectAt(observation, 'code'));
  const quantity = objectAt(observation, 'valueQuantity');
  const value =
    quantityText(quantity) ??
    textAt(observation, 'valueString') ??
    conceptText(objectAt(observation, 'valueCodeableConcept')) ??
    (typeof observation.valueInteger === 'number' ? String(observation.valueInteger) : undefined) ??
    (typeof observation.valueBoolean === 'boolean'
      ? observation.valueBoolean
        ? 'Positive'
        : 'Negative'
      : undefined);
  if (!name || !value) return null;
  const loinc = codeIn(objectAt(observation, 'code'), LOINC);
  const row = labResultSchema.safeParse({
    name: name.slice(0, 120),
    value,
    unit: textAt(quantity, 'unit') ?? textAt(quantity, 'code') ?? '',
    flag: flagOf(observation, numberAt(quantity, 'value')),
    reference_range: rangeText(listAt(observation, 'referenceRange')[0]),
    ...(loinc && /^\d{1,7}-\d$/.test(loinc) ? { code: loinc } : {}),
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
): { reports: ImportedLabReport[]; unread: number } {
  const reports: ImportedLabReport[] = [];
  const grouped = new Set<Json>();
  let unread = 0;
  const addGroup = (title: string | undefined, members: Json[], doctor: string | null, when?: string) => {
    const rows: LabResult[] = [];
    for (const member of members) {
      grouped.add(member);
      const row = readLabRow(member);
      if (row) rows.push(row);
      else unread += 1;
    }
    const day = dayOf(when) ?? members.map((member) => dayOf(effectiveOf(member))).find(Boolean) ?? null;
    if (rows.length === 0 || !day) {
      unread += rows.length;
      return;
    }
    reports.push({
      report_date: day,
      report_type: (title ?? 'Lab results').slice(0, 100),
      doctor_name: doctor,
      results: rows,
    });
  };
  for (const report of resources.filter((resource) => resource.resourceType === 'DiagnosticReport')) {
    if (enteredInError(report)) continue;
    const members = index.resolveAll(listAt(report, 'result'));
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
    const members = index.resolveAll(listAt(panel, 'hasMember'));
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
    const day = dayOf(effectiveOf(observation)) ?? '';
    byDay.set(day, [...(byDay.get(day) ?? []), observation]);
  }
  for (const [day, members] of byDay) addGroup(undefined, members, null, day || undefined);
  return { reports, unread };
}
