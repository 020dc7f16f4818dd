import { isAxiosError } from 'axios';
import { assembledHistory } from '../domain/medical-history';
import { DEFAULT_ALERT_AFTER_MINUTES } from '../domain/prescriptions';
import {
  IMPORT_FILE_FIELD,
  IMPORT_MESSAGES,
  importPreviewResponseSchema,
  type ImportKind,
  type ImportPreview,
} from '../domain/record-import';
import { alreadyKnown, type KnownRecords } from '../domain/record-import-matching';
import { resultsOf } from '../domain/lab-reports';
import type { KincareDb } from './db';
import { http } from './http';
import { importedReportPdf } from './imported-report-pdf';
import { addLabReport } from './lab-reports';
import { saveHistoryEntry } from './medical-history';
import { addPrescription } from './prescriptions';
import { patientTimeZoneOf } from './appointment-reads';
import { addRecord } from './record-writes';

// Importing a portal's record file on the device (src/domain/README.md, "Importing records"): the file is
// read by the server (POST /api/import/preview, which needs a connection and writes nothing), the person
// ticks what to add, and each ticked item is added through the same write path as a typed one (outbox,
// offline-safe, refused as a typed one would be). What is already in Kincare is added again by nothing:
// the add checks each item against the device's tables (and what this add already added) as it writes.

export const IMPORT_DEVICE_MESSAGES = {
  offline: 'Reading a file needs a connection. Nothing was changed; try again when you are online.',
  failed: 'The file could not be read right now. Nothing was changed; please try again.',
} as const;

/** A failure with the sentence to show. */
export class ImportError extends Error {
  override name = 'ImportError';
}

/** The server's reading of the file, for the patient (a caregiver names them). */
export async function previewRecordFile(
  file: Blob,
  options: { patientId?: string | undefined; zone?: string | undefined; online?: () => boolean } = {},
): Promise<ImportPreview> {
  if (!(options.online ?? (() => navigator.onLine))()) throw new ImportError(IMPORT_DEVICE_MESSAGES.offline);
  const form = new FormData();
  form.append(IMPORT_FILE_FIELD, file, file instanceof File ? file.name : 'record');
  let data: unknown;
  try {
    const response = await http.post('/import/preview', form, {
      params: {
        ...(options.patientId ? { patient: options.patientId } : {}),
        ...(options.zone ? { zone: options.zone } : {}),
      },
      timeout: 120_000,
      // The screen shows the reason beside the file; a toast would say it twice.
      quiet: true,
    });
    data = response.data;
  } catch (error) {
    const body: unknown = isAxiosError(error) ? error.response?.data : undefined;
    const message = (body as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message) throw new ImportError(message);
    throw new ImportError(
      isAxiosError(error) && !error.response ? IMPORT_DEVICE_MESSAGES.offline : IMPORT_DEVICE_MESSAGES.failed,
    );
  }
  const parsed = importPreviewResponseSchema.safeParse(data);
  if (!parsed.success) throw new ImportError(IMPORT_MESSAGES.notRecognised);
  return parsed.data.data;
}

/** What the patient's records on this device hold, as matching needs it. */
export async function knownRecordsOf(db: KincareDb, patientId: string): Promise<KnownRecords> {
  const [historyRow, prescriptions, reports, vitals] = await Promise.all([
    db.medical_history.where('patient_id').equals(patientId).first(),
    db.prescriptions.where('patient_id').equals(patientId).toArray(),
    db.lab_reports.where('patient_id').equals(patientId).toArray(),
    db.vitals.where('patient_id').equals(patientId).toArray(),
  ]);
  const history = assembledHistory(historyRow ?? { id: '', patient_id: patientId, version: 0 });
  return {
    allergies: history.allergies,
    conditions: history.conditions,
    immunizations: history.immunizations,
    surgeries: history.surgeries.map((surgery) => ({ procedure: surgery.procedure, date: surgery.date })),
    prescriptions,
    labRows: reports.flatMap((report) =>
      (report.results ?? resultsOf(report.report_ocr)).map((row) => ({
        date: report.report_date.slice(0, 10),
        name: row.name,
        code: row.code,
      })),
    ),
    vitals,
  };
}

/** Which items the person ticked, by kind (indexes into the preview's lists), and what they filled in. */
export type ImportChoices = {
  [Kind in ImportKind]: number[];
} & {
  /** Severities chosen for allergies the file gave none for, by index. */
  severities: Record<number, 'mild' | 'moderate' | 'severe' | 'life_threatening'>;
  /** Start dates chosen for medicines the file gave none for, by index (YYYY-MM-DD). */
  startDates: Record<number, string>;
};

const only = <Kind extends ImportKind>(kind: Kind, item: ImportPreview[Kind][number]) =>
  ({
    allergies: [],
    conditions: [],
    immunizations: [],
    surgeries: [],
    prescriptions: [],
    lab_reports: [],
    vitals: [],
    [kind]: [item],
  }) as unknown as Pick<ImportPreview, ImportKind>;

/**
 * Adds the ticked items for the patient, each as an ordinary change; answers how many were added. An item
 * already in Kincare (or added a moment ago by this same add) is passed over.
 */
export async function addImported(
  db: KincareDb,
  input: {
    patientId: string;
    caregiverId: string | null;
    preview: ImportPreview;
    choices: ImportChoices;
    /** The document, in words, for the notes of what is added ('Imported from Patient Chart Summary, 2013-08-15'). */
    sourceNote: string;
  },
  now = new Date(),
): Promise<number> {
  const { patientId, caregiverId, preview, choices, sourceNote } = input;
  let added = 0;
  // What the server said this caller may add for this patient: nothing else is written, whatever is ticked.
  const mayAdd = (kind: ImportKind) => preview.may_add[kind];
  // The patient's records read once; each item added joins them, so a file listing a thing twice adds it once.
  const read = await knownRecordsOf(db, patientId);
  const known = {
    allergies: [...read.allergies],
    conditions: [...read.conditions],
    immunizations: [...read.immunizations],
    surgeries: [...read.surgeries],
    prescriptions: [...read.prescriptions],
    labRows: [...read.labRows],
    vitals: [...read.vitals],
  };
  const remember: { [Kind in ImportKind]: (item: ImportPreview[Kind][number]) => void } = {
    allergies: (item) => known.allergies.push(item),
    conditions: (item) => known.conditions.push(item),
    immunizations: (item) => known.immunizations.push(item),
    surgeries: (item) => known.surgeries.push(item),
    prescriptions: (item) => known.prescriptions.push(item),
    lab_reports: (item) =>
      known.labRows.push(
        ...item.results.map((row) => ({ date: item.report_date, name: row.name, code: row.code })),
      ),
    vitals: (item) => known.vitals.push(item),
  };
  const isNew = <Kind extends ImportKind>(kind: Kind, item: ImportPreview[Kind][number]): boolean => {
    if (alreadyKnown(only(kind, item), known)[kind][0]) return false;
    remember[kind](item);
    return true;
  };
  const stamp = now.toISOString();

  for (const index of mayAdd('allergies') ? choices.allergies : []) {
    const item = preview.allergies[index];
    const severity = item?.severity ?? choices.severities[index];
    if (!item || !severity || !isNew('allergies', item)) continue;
    await saveHistoryEntry(
      db,
      patientId,
      'allergies',
      {
        id: crypto.randomUUID(),
        added_at: stamp,
        substance: item.substance,
        reaction: item.reaction.slice(0, 200),
        severity,
      },
      now,
    );
    added += 1;
  }
  for (const index of mayAdd('conditions') ? choices.conditions : []) {
    const item = preview.conditions[index];
    if (!item || !isNew('conditions', item)) continue;
    await saveHistoryEntry(
      db,
      patientId,
      'conditions',
      {
        id: crypto.randomUUID(),
        added_at: stamp,
        name: item.name,
        onset: item.onset,
        status: item.status,
        notes: sourceNote,
      },
      now,
    );
    added += 1;
  }
  for (const index of mayAdd('immunizations') ? choices.immunizations : []) {
    const item = preview.immunizations[index];
    if (!item || !isNew('immunizations', item)) continue;
    await saveHistoryEntry(
      db,
      patientId,
      'immunizations',
      { id: crypto.randomUUID(), added_at: stamp, vaccine: item.vaccine, date: item.date },
      now,
    );
    added += 1;
  }
  for (const index of mayAdd('surgeries') ? choices.surgeries : []) {
    const item = preview.surgeries[index];
    if (!item || !isNew('surgeries', item)) continue;
    await saveHistoryEntry(
      db,
      patientId,
      'surgeries',
      {
        id: crypto.randomUUID(),
        added_at: stamp,
        procedure: item.procedure,
        date: item.date,
        notes: sourceNote,
      },
      now,
    );
    added += 1;
  }
  if (mayAdd('prescriptions') && choices.prescriptions.length > 0) {
    const timeZone = await patientTimeZoneOf(db, patientId);
    for (const index of choices.prescriptions) {
      const item = preview.prescriptions[index];
      const start = item?.start_date ?? choices.startDates[index];
      if (!item || !start || !isNew('prescriptions', item)) continue;
      await addPrescription(
        db,
        {
          patient_id: patientId,
          caregiver_id: caregiverId,
          medicine_name: item.medicine_name,
          strength: item.strength,
          form: item.form,
          directions: item.directions,
          doctor_id: null,
          pharmacy_id: null,
          quantity: null,
          refills: null,
          start_date: start,
          end_date: item.end_date && item.end_date >= start ? item.end_date : null,
          times: item.as_needed ? [] : item.times,
          as_needed: item.as_needed || item.times.length === 0,
          status: item.status,
          notes: sourceNote,
          time_zone: timeZone,
          // An imported medicine reminds nobody until the person says so on its screen.
          reminders: false,
          alert_after_minutes: DEFAULT_ALERT_AFTER_MINUTES,
          alert_caregivers: [],
        },
        now,
      );
      added += 1;
    }
  }
  for (const index of mayAdd('lab_reports') ? choices.lab_reports : []) {
    const item = preview.lab_reports[index];
    if (!item || !isNew('lab_reports', item)) continue;
    const pdf = await importedReportPdf(item, sourceNote);
    await addLabReport(
      db,
      {
        patient_id: patientId,
        caregiver_id: caregiverId,
        fields: {
          report_type: item.report_type,
          report_date: item.report_date,
          doctor_id: null,
          doctor_name: item.doctor_name,
          report_ocr: JSON.stringify({
            doctor_name: item.doctor_name,
            report_date: item.report_date,
            report_type: item.report_type,
            lab_results: item.results,
          }),
        },
        file: { blob: pdf, name: `${item.report_type} ${item.report_date}.pdf` },
      },
      now,
    );
    added += 1;
  }
  for (const index of mayAdd('vitals') ? choices.vitals : []) {
    const item = preview.vitals[index];
    if (!item || !isNew('vitals', item)) continue;
    await addRecord(
      db,
      'vitals',
      {
        patientId,
        caregiverId,
        fields: {
          kind: item.kind,
          unit: item.unit,
          value: item.value,
          systolic: item.systolic,
          diastolic: item.diastolic,
          fasting: null,
          measured_at: item.measured_at,
          note: item.date_only ? `${sourceNote} (the day only)` : sourceNote,
        },
      },
      now,
    );
    added += 1;
  }
  return added;
}
