import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../src/domain/record-import';
import { alreadyKnown } from '../../../src/domain/record-import-matching';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { importedReportPdf } from '../../../src/local/imported-report-pdf';
import { historyOf } from '../../../src/local/medical-history';
import { addImported, knownRecordsOf, type ImportChoices } from '../../../src/local/record-import';

// Adding what a record file holds, on the device: each ticked item through its ordinary write path (table
// and outbox), nothing that is already there (nor twice what the file lists twice), and an item the file
// left a needed field out of only once the person filled it in.

const PATIENT = '5e2a7c10-0000-4000-8000-000000000001';
const USER = '5e2a7c10-0000-4000-8000-0000000000aa';
let db: KincareDb;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}${USER}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const preview: ImportPreview = {
  source: {
    format: 'ccda',
    title: 'Patient Chart Summary',
    date: '2013-08-15T10:30:00-08:00',
    author: null,
    organization: 'Good Health HIE',
    patient_name: 'Eve Betterhalf',
    patient_birth_date: '1975-05-01',
  },
  patient_matches: true,
  allergies: [
    { substance: 'Penicillin', reaction: 'Nausea', severity: 'mild' },
    { substance: 'Latex', reaction: 'Rash', severity: null },
  ],
  conditions: [
    { name: 'Pneumonia', onset: '2012-09-25', status: 'active' },
    { name: 'pneumonia ', onset: '1998-03-10', status: 'resolved' },
  ],
  immunizations: [{ vaccine: 'Influenza', date: '1999-01-01' }],
  surgeries: [{ procedure: 'Colonoscopy', date: null }],
  prescriptions: [
    {
      medicine_name: 'Atenolol',
      strength: '25 mg',
      form: 'tablet',
      directions: 'every 12 hours',
      times: ['08:00', '20:00'],
      as_needed: false,
      start_date: '2012-03-18',
      end_date: null,
      status: 'active',
      rxnorm: '197380',
    },
  ],
  lab_reports: [
    {
      report_date: '2008-03-19',
      report_type: 'CBC',
      doctor_name: null,
      results: [
        {
          name: 'Platelets',
          value: '123',
          unit: '10*9/L',
          flag: 'L',
          reference_range: '150-350',
          code: '777-3',
        },
      ],
    },
  ],
  vitals: [
    {
      kind: 'blood_pressure',
      unit: 'mmHg',
      value: null,
      systolic: 132,
      diastolic: 88,
      measured_at: '2012-09-10T12:00:00Z',
      date_only: true,
    },
  ],
  skipped: [],
  may_add: {
    allergies: true,
    conditions: true,
    immunizations: true,
    surgeries: true,
    prescriptions: true,
    lab_reports: true,
    vitals: true,
  },
};

const everything: ImportChoices = {
  allergies: [0, 1],
  conditions: [0, 1],
  immunizations: [0],
  surgeries: [0],
  prescriptions: [0],
  lab_reports: [0],
  vitals: [0],
  severities: {},
  startDates: {},
};

const add = (choices: ImportChoices) =>
  addImported(db, {
    patientId: PATIENT,
    caregiverId: null,
    preview,
    choices,
    sourceNote: 'Imported from a test',
  });

describe('adding an imported file', () => {
  it('adds each kind once, through the outbox, and nothing the second time', async () => {
    // Latex has no severity and none was chosen: left out. The second Pneumonia is the first one again.
    expect(await add(everything)).toBe(7);
    const history = await historyOf(db, PATIENT);
    expect(history.allergies.map((allergy) => allergy.substance)).toEqual(['Penicillin']);
    expect(history.conditions.map((condition) => condition.name)).toEqual(['Pneumonia']);
    const [report] = await db.lab_reports.toArray();
    expect(report?.results).toEqual(preview.lab_reports[0]?.results);
    const [prescription] = await db.prescriptions.toArray();
    expect(prescription).toMatchObject({
      medicine_name: 'Atenolol',
      times: ['08:00', '20:00'],
      reminders: false,
    });
    expect(await db.vitals.count()).toBe(1);
    const queued = await db.outbox.count();
    expect(queued).toBeGreaterThanOrEqual(7);
    // The report's file, made on the device: a PDF, kept until it is uploaded.
    const [stored] = await db.blobs.toArray();
    expect(stored).toMatchObject({ type: 'application/pdf', uploadType: 'lab', name: 'CBC 2008-03-19.pdf' });

    expect(await add(everything)).toBe(0);
    expect(await db.outbox.count()).toBe(queued);
    const marked = alreadyKnown(preview, await knownRecordsOf(db, PATIENT));
    expect(marked).toEqual({
      allergies: [true, false],
      conditions: [true, true],
      immunizations: [true],
      surgeries: [true],
      prescriptions: [true],
      lab_reports: [true],
      vitals: [true],
    });
  });

  it('adds an allergy the file gave no severity for once the person chose one', async () => {
    expect(await add({ ...everything, allergies: [1], severities: { 1: 'moderate' } })).toBe(7);
    const history = await historyOf(db, PATIENT);
    expect(history.allergies).toEqual([
      expect.objectContaining({ substance: 'Latex', severity: 'moderate' }),
    ]);
  });

  it('adds nothing of a kind the caller may not add, whatever is ticked', async () => {
    const caregiverView = {
      ...preview,
      may_add: {
        ...preview.may_add,
        allergies: false,
        conditions: false,
        immunizations: false,
        surgeries: false,
      },
    };
    const added = await addImported(db, {
      patientId: PATIENT,
      caregiverId: '5e2a7c10-0000-4000-8000-0000000000cc',
      preview: caregiverView,
      choices: everything,
      sourceNote: 'Imported from a test',
    });
    expect(added).toBe(3);
    expect((await historyOf(db, PATIENT)).allergies).toEqual([]);
    expect(await db.prescriptions.count()).toBe(1);
  });

  it('adds only what was ticked', async () => {
    expect(await add({ ...everything, conditions: [], lab_reports: [], vitals: [], prescriptions: [] })).toBe(
      3,
    );
    expect(await db.lab_reports.count()).toBe(0);
  });

  it("makes the report's file a PDF of its rows, whatever characters they hold", async () => {
    const [report] = preview.lab_reports;
    if (!report) throw new Error('no report');
    const pdf = await importedReportPdf(
      {
        ...report,
        results: [
          ...report.results,
          { ...report.results[0]!, name: 'Glucose ≥ µ 中文', reference_range: '≤ 99' },
        ],
      },
      'Imported from a test',
    );
    const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(pdf);
    });
    expect(new TextDecoder().decode(new Uint8Array(bytes).slice(0, 5))).toBe('%PDF-');
  });
});
