import type { ImportKind, ImportPreview } from './record-import';

// What of an imported file is already in Kincare, so the review screen marks it and leaves it unticked,
// and adding the same file twice adds nothing the second time (the add re-checks at the moment it writes).
// The same thing is: an allergy of the same substance; a condition of the same name; an immunization of
// the same vaccine on the same date; a surgery of the same procedure on the same date; a medicine of the
// same name and strength; a lab result of the same analyte (its LOINC code, else its name) on the same
// date (a report is already in when every one of its rows is); a vital of the same kind at the same
// moment. Names compare without case, accents or spacing.

/** What the patient's records hold, as far as matching needs. */
export type KnownRecords = {
  allergies: readonly { substance: string }[];
  conditions: readonly { name: string }[];
  immunizations: readonly { vaccine: string; date: string | null }[];
  surgeries: readonly { procedure: string; date: string | null }[];
  prescriptions: readonly { medicine_name: string; strength: string }[];
  /** Every result row of every lab report, with its report's date. */
  labRows: readonly { date: string; name: string; code?: string | undefined }[];
  vitals: readonly { kind: string; measured_at: string }[];
};

export const sameText = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const moment = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : String(time);
};

const analyteKeys = (date: string, row: { name: string; code?: string | undefined }) => [
  `${date}|name|${sameText(row.name)}`,
  ...(row.code ? [`${date}|code|${row.code}`] : []),
];

/** For each kind, whether each found item (in the preview's order) is already in Kincare. */
export function alreadyKnown(
  found: Pick<ImportPreview, ImportKind>,
  known: KnownRecords,
): Record<ImportKind, boolean[]> {
  const keys = <T>(items: readonly T[], key: (item: T) => string) => new Set(items.map(key));
  const allergies = keys(known.allergies, (item) => sameText(item.substance));
  const conditions = keys(known.conditions, (item) => sameText(item.name));
  const immunizations = keys(known.immunizations, (item) => `${sameText(item.vaccine)}|${item.date ?? ''}`);
  const surgeries = keys(known.surgeries, (item) => `${sameText(item.procedure)}|${item.date ?? ''}`);
  const prescriptions = keys(
    known.prescriptions,
    (item) => `${sameText(item.medicine_name)}|${sameText(item.strength)}`,
  );
  const labRows = new Set(known.labRows.flatMap((row) => analyteKeys(row.date, row)));
  const vitals = keys(known.vitals, (item) => `${item.kind}|${moment(item.measured_at)}`);
  return {
    allergies: found.allergies.map((item) => allergies.has(sameText(item.substance))),
    conditions: found.conditions.map((item) => conditions.has(sameText(item.name))),
    immunizations: found.immunizations.map((item) =>
      immunizations.has(`${sameText(item.vaccine)}|${item.date ?? ''}`),
    ),
    surgeries: found.surgeries.map((item) => surgeries.has(`${sameText(item.procedure)}|${item.date ?? ''}`)),
    prescriptions: found.prescriptions.map((item) =>
      prescriptions.has(`${sameText(item.medicine_name)}|${sameText(item.strength)}`),
    ),
    lab_reports: found.lab_reports.map((report) =>
      report.results.every((row) => analyteKeys(report.report_date, row).some((key) => labRows.has(key))),
    ),
    vitals: found.vitals.map((item) => vitals.has(`${item.kind}|${moment(item.measured_at)}`)),
  };
}
