import { readFileSync } from 'node:fs';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ENTRIES,
  IMPORT_MESSAGES,
  type ImportPreview,
} from '../../src/domain/record-import';
import { records } from '../../src/server/db/schema';
import { ccdaSamplePath, samplesMissing } from '../fixtures/ccda-samples';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// POST /api/import/preview on the real app: the three public C-CDA examples HL7 publishes (a CCD, a
// discharge summary, a referral note; read from the shared samples folder, never copied here), FHIR R4
// files made below, hostile XML and JSON, and who may ask. A preview writes nothing.

const sample = (name: Parameters<typeof ccdaSamplePath>[0]) => {
  if (samplesMissing) throw new Error(samplesMissing);
  return readFileSync(ccdaSamplePath(name));
};

let ctx: TestContext;
let patient: Person;

beforeAll(async () => {
  ctx = await startTestApp();
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Eve Betterhalf');
});

function preview(person: Person, bytes: Buffer, query = '', contentType = 'application/xml') {
  const form = multipartForm({}, [{ field: 'file', filename: 'record', contentType, bytes }]);
  return as(ctx, person, {
    method: 'POST',
    url: `/api/import/preview${query}`,
    payload: form.payload,
    headers: form.headers,
  });
}

async function previewOf(person: Person, bytes: Buffer, query = ''): Promise<ImportPreview> {
  const answer = await preview(person, bytes, query);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ data: ImportPreview }>().data;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('the HL7 example documents', () => {
  it('reads the CCD: allergies, medicines, problems, results, immunizations and vitals with their values', async () => {
    const found = await previewOf(patient, sample('ccd-1.xml'));
    expect(found.source).toMatchObject({
      format: 'ccda',
      title: 'Patient Chart Summary',
      author: 'Patricia Patty Primary M.D.',
      organization: 'Good Health HIE',
      patient_name: 'Eve Betterhalf',
      patient_birth_date: '1975-05-01',
    });
    expect(found.patient_matches).toBe(true);
    expect(found.allergies).toEqual([
      { substance: 'Penicillin', reaction: 'Nausea', severity: 'mild' },
      { substance: 'codeine', reaction: 'Wheezing', severity: 'moderate' },
    ]);
    expect(
      found.prescriptions.map(({ medicine_name, strength, form, rxnorm }) => ({
        medicine_name,
        strength,
        form,
        rxnorm,
      })),
    ).toEqual([
      { medicine_name: 'Albuterol', strength: '0.09 mg', form: 'inhaler', rxnorm: '573621' },
      { medicine_name: 'Atenolol', strength: '25 mg', form: 'tablet', rxnorm: '197380' },
    ]);
    // Albuterol is taken when wheezing (the document's precondition), not round the clock.
    expect(found.prescriptions[0]).toMatchObject({
      directions: 'every 6 hours as needed for wheezing',
      times: [],
      as_needed: true,
    });
    const atenolol = found.prescriptions[1];
    expect(atenolol).toMatchObject({
      directions: 'every 12 hours',
      times: ['08:00', '20:00'],
      start_date: '2012-03-18',
    });
    expect(found.conditions.map((condition) => condition.name)).toEqual(
      expect.arrayContaining(['Pneumonia', 'Chest pain']),
    );
    expect(found.conditions.find((condition) => condition.name === 'Chest pain')).toEqual({
      name: 'Chest pain',
      onset: '2007-04-14',
      status: 'active',
    });
    const [cbc] = found.lab_reports;
    expect(cbc).toMatchObject({
      report_date: '2008-03-19',
      report_type: 'CBC W Auto Differential panel in Blood',
    });
    expect(cbc?.results).toContainEqual({
      name: 'Hemoglobin',
      value: '13.2',
      unit: 'g/dL',
      flag: '',
      reference_range: '12-15.5',
      code: '718-7',
    });
    // The file gives no interpretation; 123 is below its own range of 150-350.
    expect(cbc?.results.find((row) => row.code === '777-3')).toMatchObject({ value: '123', flag: 'L' });
    // The document dates this vaccine November 1999 ('199911'): a month, never a made-up 1st of January.
    expect(found.immunizations).toContainEqual({
      vaccine: 'influenza virus vaccine, unspecified formulation',
      date: '1999-11',
    });
    expect(found.vitals).toContainEqual({
      kind: 'blood_pressure',
      unit: 'mmHg',
      value: null,
      systolic: 132,
      diastolic: 88,
      measured_at: '2012-09-10T12:00:00Z',
      date_only: true,
    });
    expect(found.vitals).toContainEqual(expect.objectContaining({ kind: 'weight', unit: 'kg', value: 86 }));
    expect(found.skipped).toContainEqual({ what: 'Visits', count: 1 });
    expect(found.may_add).toEqual({
      allergies: true,
      conditions: true,
      immunizations: true,
      surgeries: true,
      prescriptions: true,
      lab_reports: true,
      vitals: true,
    });
  });

  it('reads the discharge summary, its discharge medicines too, and says the patient is someone else', async () => {
    const found = await previewOf(patient, sample('discharge-summary.xml'));
    expect(found.source.patient_name).toBe('Isabella Jones');
    expect(found.patient_matches).toBe(false);
    expect(found.allergies.map((allergy) => allergy.substance)).toEqual(['penicillin G', 'codeine', 'Egg']);
    // The file gives no severity for the penicillin reaction: the person is asked, nothing is guessed.
    expect(found.allergies[0]).toEqual({ substance: 'penicillin G', reaction: 'Nausea', severity: null });
    expect(found.prescriptions).toEqual([
      expect.objectContaining({
        medicine_name: 'Ibuprofen',
        strength: '600 mg',
        form: 'tablet',
        rxnorm: '197806',
        directions: 'every 6 hours as needed',
        as_needed: true,
      }),
    ]);
    expect(found.conditions.map((condition) => condition.name)).toContain('Appendicitis');
    expect(found.surgeries).toEqual([{ procedure: 'Laparoscopic appendectomy', date: '2014-09-10' }]);
    expect(found.immunizations).toEqual([{ vaccine: 'Influenza, seasonal, injectable', date: '2014-09-01' }]);
    expect(found.vitals).toContainEqual(
      expect.objectContaining({ kind: 'blood_pressure', systolic: 80, diastolic: 55, date_only: false }),
    );
  });

  it('reads the referral note, and leaves out what its plan of treatment only plans', async () => {
    const found = await previewOf(patient, sample('referral-note.xml'));
    expect(found.source.title).toBe('Referral Note');
    expect(found.prescriptions.map((prescription) => prescription.medicine_name)).toEqual([
      'Albuterol',
      'Atenolol',
    ]);
    expect(found.conditions.map((condition) => condition.name)).toEqual(
      expect.arrayContaining(['Type II diabetes mellitus with ulcer (disorder)', 'Mixed asthma']),
    );
    expect(found.lab_reports[0]?.results.map((row) => row.name)).toEqual(
      expect.arrayContaining(['Hemoglobin', 'Platelets']),
    );
    expect(found.skipped).toContainEqual({ what: 'Planned care (the plan of treatment)', count: 4 });
  });

  it("reads the file in a sandbox process, not in the server's own", async () => {
    await previewOf(patient, sample('referral-note.xml'));
    const readers = ctx.app.recordReader.processIds();
    expect(readers).toHaveLength(1);
    expect(readers).not.toContain(process.pid);
  });

  it('reads a document of R1.1’s shape (templates without their R2 versions) as it reads R2.1', async () => {
    const r2 = await previewOf(patient, sample('ccd-1.xml'));
    const r11 = sample('ccd-1.xml')
      .toString('utf8')
      .replace(/(<templateId root="[0-9.]+") extension="[^"]*"/g, '$1');
    const found = await previewOf(patient, Buffer.from(r11));
    const { source: _r2, ...r2Records } = r2;
    const { source: _r11, ...r11Records } = found;
    expect(r11Records).toEqual(r2Records);
  });

  it('reads the rest of a document when one section breaks the converter, and says a section was left', async () => {
    // The allergies section's templates taken away: its entries make the converter fail.
    const xml = sample('ccd-1.xml').toString('utf8');
    const title = xml.indexOf('<title>ALLERGIES');
    const start = xml.lastIndexOf('<section>', title);
    const broken =
      xml.slice(0, start) + xml.slice(start, title).replace(/<templateId [^>]*\/>/g, '') + xml.slice(title);
    const found = await previewOf(patient, Buffer.from(broken));
    expect(found.allergies).toEqual([]);
    expect(found.prescriptions.map((prescription) => prescription.medicine_name)).toEqual([
      'Albuterol',
      'Atenolol',
    ]);
    expect(found.lab_reports).toHaveLength(1);
    expect(found.source.title).toBe('Patient Chart Summary');
    expect(found.skipped).toEqual(
      expect.arrayContaining([
        { what: 'Sections of the document Kincare could not read', count: 1 },
        { what: 'Planned care (the plan of treatment)', count: 1 },
      ]),
    );
  });

  it('writes nothing', async () => {
    const before = await ctx.database.db.select({ rows: count() }).from(records);
    await previewOf(patient, sample('ccd-1.xml'));
    const after = await ctx.database.db.select({ rows: count() }).from(records);
    expect(after).toEqual(before);
  });
});

/** A FHIR R4 transaction-free collection, as a portal's "download my data" gives it, with urn:uuid references. */
function portalBundle() {
  const entry = (id: string, resource: Record<string, unknown>) => ({ fullUrl: `urn:uuid:${id}`, resource });
  const loinc = (code: string, display: string) => ({
    coding: [{ system: 'http://loinc.org', code, display }],
  });
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: '2026-10-01T09:00:00-04:00',
    entry: [
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000001', {
        resourceType: 'Patient',
        name: [{ family: 'Betterhalf', given: ['Eve', 'Marie'] }],
        birthDate: '1975-05-01',
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000002', {
        resourceType: 'AllergyIntolerance',
        code: { text: 'Peanuts' },
        reaction: [{ manifestation: [{ text: 'Hives' }], severity: 'severe' }],
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000003', {
        resourceType: 'Condition',
        code: { coding: [{ system: 'http://snomed.info/sct', code: '38341003', display: 'Hypertension' }] },
        clinicalStatus: { coding: [{ code: 'active' }] },
        onsetDateTime: '2019-04',
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000004', {
        resourceType: 'Condition',
        code: { text: 'Ruled out' },
        verificationStatus: { coding: [{ code: 'refuted' }] },
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000005', {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: {
          coding: [
            {
              system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
              code: '314076',
              display: 'lisinopril 10 MG Oral Tablet',
            },
          ],
        },
        authoredOn: '2026-03-02',
        dosageInstruction: [{ text: 'Take 1 tablet by mouth twice daily' }],
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000006', {
        resourceType: 'DiagnosticReport',
        status: 'final',
        code: loinc('24323-8', 'Comprehensive metabolic panel'),
        effectiveDateTime: '2026-09-14T07:45:00-04:00',
        resultsInterpreter: [{ display: 'Dr. Ana Ruiz' }],
        result: [
          { reference: 'urn:uuid:3b1c3a58-0f9e-4d3a-9b2a-000000000007' },
          { reference: 'urn:uuid:3b1c3a58-0f9e-4d3a-9b2a-000000000008' },
        ],
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000007', {
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [{ code: 'laboratory' }] }],
        code: loinc('2345-7', 'Glucose'),
        valueQuantity: { value: 105, unit: 'mg/dL' },
        interpretation: [{ coding: [{ code: 'H' }] }],
        referenceRange: [{ low: { value: 70 }, high: { value: 99 } }],
        effectiveDateTime: '2026-09-14T07:45:00-04:00',
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000008', {
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [{ code: 'laboratory' }] }],
        code: loinc('5196-1', 'Hepatitis B surface Ag'),
        valueCodeableConcept: { text: 'Negative' },
        referenceRange: [{ text: 'Negative' }],
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000009', {
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [{ code: 'vital-signs' }] }],
        code: loinc('85354-9', 'Blood pressure panel'),
        effectiveDateTime: '2026-09-14T07:30:00-04:00',
        component: [
          { code: loinc('8480-6', 'Systolic'), valueQuantity: { value: 138, unit: 'mmHg', code: 'mm[Hg]' } },
          { code: loinc('8462-4', 'Diastolic'), valueQuantity: { value: 86, unit: 'mmHg', code: 'mm[Hg]' } },
        ],
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000010', {
        resourceType: 'Immunization',
        status: 'completed',
        vaccineCode: { text: 'COVID-19, mRNA' },
        occurrenceDateTime: '2024-10-02',
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000011', {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: 'Knee arthroscopy' },
        performedPeriod: { start: '2015-06-20' },
      }),
      entry('3b1c3a58-0f9e-4d3a-9b2a-000000000012', { resourceType: 'Encounter', status: 'finished' }),
    ],
  };
}

describe('FHIR R4 files', () => {
  it('reads a portal bundle into every kind, with the dose times its directions imply', async () => {
    const found = await previewOf(patient, json(portalBundle()));
    expect(found.source).toMatchObject({
      format: 'fhir',
      date: '2026-10-01T09:00:00-04:00',
      patient_name: 'Eve Marie Betterhalf',
    });
    expect(found.patient_matches).toBe(true);
    expect(found.allergies).toEqual([{ substance: 'Peanuts', reaction: 'Hives', severity: 'severe' }]);
    expect(found.conditions).toEqual([{ name: 'Hypertension', onset: '2019-04', status: 'active' }]);
    expect(found.prescriptions).toEqual([
      {
        medicine_name: 'Lisinopril',
        strength: '10 mg',
        form: 'tablet',
        directions: 'Take 1 tablet by mouth twice daily',
        times: ['08:00', '20:00'],
        as_needed: false,
        start_date: '2026-03-02',
        end_date: null,
        status: 'active',
        rxnorm: '314076',
      },
    ]);
    expect(found.lab_reports).toEqual([
      {
        report_date: '2026-09-14',
        report_type: 'Comprehensive metabolic panel',
        doctor_name: 'Dr. Ana Ruiz',
        results: [
          {
            name: 'Glucose',
            value: '105',
            unit: 'mg/dL',
            flag: 'H',
            reference_range: '70-99',
            code: '2345-7',
          },
          {
            name: 'Hepatitis B surface Ag',
            value: 'Negative',
            unit: '',
            flag: '',
            reference_range: 'Negative',
            code: '5196-1',
          },
        ],
      },
    ]);
    expect(found.vitals).toEqual([
      {
        kind: 'blood_pressure',
        unit: 'mmHg',
        value: null,
        systolic: 138,
        diastolic: 86,
        measured_at: '2026-09-14T07:30:00-04:00',
        date_only: false,
      },
    ]);
    expect(found.immunizations).toEqual([{ vaccine: 'COVID-19, mRNA', date: '2024-10-02' }]);
    expect(found.surgeries).toEqual([{ procedure: 'Knee arthroscopy', date: '2015-06-20' }]);
    expect(found.skipped).toEqual(
      expect.arrayContaining([
        { what: 'Visits', count: 1 },
        { what: 'Conditions that could not be read', count: 1 },
      ]),
    );
  });

  it('reads NDJSON (a resource per line, as bulk exports write it), and a timing given as moments of the day', async () => {
    const lines = [
      { resourceType: 'Patient', name: [{ text: 'Eve Betterhalf' }] },
      {
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationCodeableConcept: { text: 'Metformin 500 MG Oral Tablet' },
        effectivePeriod: { start: '2025-01-10' },
        dosage: [{ timing: { repeat: { when: ['MORN', 'HS'] } } }],
      },
      {
        resourceType: 'Immunization',
        status: 'completed',
        vaccineCode: { text: 'Tdap' },
        occurrenceDateTime: '2023-05',
      },
    ];
    const found = await previewOf(patient, Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n')));
    expect(found.patient_matches).toBe(true);
    expect(found.prescriptions).toEqual([
      expect.objectContaining({
        medicine_name: 'Metformin',
        strength: '500 mg',
        directions: 'in the morning and at bedtime',
        times: ['08:00', '22:00'],
        start_date: '2025-01-10',
      }),
    ]);
    expect(found.immunizations).toEqual([{ vaccine: 'Tdap', date: '2023-05' }]);
  });

  it('reads a document saved as UTF-16', async () => {
    const text = sample('ccd-1.xml').toString('utf8').replace('encoding="utf-8"', 'encoding="utf-16"');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const found = await previewOf(patient, utf16);
    expect(found.allergies.map((allergy) => allergy.substance)).toEqual(['Penicillin', 'codeine']);
  });

  it('reads a single resource', async () => {
    const found = await previewOf(
      patient,
      json({
        resourceType: 'AllergyIntolerance',
        code: { text: 'Latex' },
        reaction: [{ manifestation: [{ text: 'Rash' }] }],
      }),
    );
    expect(found.allergies).toEqual([{ substance: 'Latex', reaction: 'Rash', severity: null }]);
    expect(found.patient_matches).toBeNull();
  });

  it('keeps a value of the wrong type out, and does not fail on it', async () => {
    const bundle = portalBundle();
    bundle.entry.push({
      fullUrl: 'urn:uuid:3b1c3a58-0f9e-4d3a-9b2a-000000000099',
      resource: {
        resourceType: 'Observation',
        category: [{ coding: [{ code: 'laboratory' }] }],
        code: { text: 42 },
        valueQuantity: { value: 'lots' },
      } as unknown as { resourceType: string },
    });
    const found = await previewOf(patient, json(bundle));
    expect(found.lab_reports.flatMap((report) => report.results)).toHaveLength(2);
  });
});

describe('what portals really write', () => {
  const bundleOf = (...resources: Record<string, unknown>[]) =>
    json({ resourceType: 'Bundle', type: 'searchset', entry: resources.map((resource) => ({ resource })) });
  const lab = (id: string, extra: Record<string, unknown>) => ({
    resourceType: 'Observation',
    id,
    status: 'final',
    category: [{ coding: [{ code: 'laboratory' }] }],
    effectiveDateTime: '2026-02-03T08:00:00-05:00',
    ...extra,
  });

  it('leaves out what a C-CDA document says is absent, and keeps each problem of a concern', async () => {
    // The penicillin allergy observation marked as not so (negationInd): "no allergy to penicillin".
    const xml = sample('ccd-1.xml').toString('utf8');
    const allergy = xml.indexOf('<templateId root="2.16.840.1.113883.10.20.22.4.7"');
    const opening = xml.lastIndexOf('<observation classCode="OBS" moodCode="EVN"', allergy);
    const negated =
      xml.slice(0, opening) +
      '<observation classCode="OBS" moodCode="EVN" negationInd="true"' +
      xml.slice(opening + '<observation classCode="OBS" moodCode="EVN"'.length);
    const found = await previewOf(patient, Buffer.from(negated));
    expect(found.allergies.map((item) => item.substance)).toEqual(['codeine']);
    // The CCD's vaccines marked not given are not immunizations; its concern of two problems gives both.
    expect(found.immunizations.map((item) => item.vaccine)).not.toContain(
      'meningococcal C conjugate vaccine',
    );
    expect(found.conditions.map((item) => item.name)).toContain('Angina');
    expect(found.conditions.find((item) => item.onset === '1998-03-10')?.status).toBe('resolved');
  });

  it('does not show what a file denies, withdrew, plans or leaves unconfirmed', async () => {
    const found = await previewOf(
      patient,
      bundleOf(
        {
          resourceType: 'AllergyIntolerance',
          code: {
            coding: [{ system: 'http://snomed.info/sct', code: '716186003', display: 'No known allergy' }],
          },
        },
        {
          resourceType: 'AllergyIntolerance',
          code: { text: 'Sulfa' },
          clinicalStatus: { coding: [{ code: 'resolved' }] },
        },
        {
          resourceType: 'AllergyIntolerance',
          code: { text: 'Latex' },
          verificationStatus: { coding: [{ code: 'unconfirmed' }] },
        },
        { resourceType: 'AllergyIntolerance', code: { text: 'Shellfish' } },
        {
          resourceType: 'MedicationRequest',
          status: 'active',
          intent: 'proposal',
          medicationCodeableConcept: { text: 'Statin' },
        },
        {
          resourceType: 'MedicationRequest',
          status: 'active',
          intent: 'order',
          doNotPerform: true,
          medicationCodeableConcept: { text: 'Aspirin' },
        },
        {
          resourceType: 'MedicationRequest',
          status: 'active',
          intent: 'order',
          medicationCodeableConcept: { coding: [{ code: '197361' }] },
        },
        {
          resourceType: 'MedicationRequest',
          status: 'active',
          intent: 'order',
          medicationCodeableConcept: { text: 'Levothyroxine 50 MCG Oral Tablet' },
          dosageInstruction: [
            { timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', timeOfDay: ['06:30:00'] } } },
          ],
          dispenseRequest: { validityPeriod: { start: '2026-01-05', end: '2027-01-05' } },
        },
        { resourceType: 'OperationOutcome', issue: [{ severity: 'information' }] },
        {
          resourceType: 'DiagnosticReport',
          status: 'final',
          code: { text: 'Chest X-ray' },
          conclusion: 'Clear.',
        },
      ),
    );
    expect(found.skipped).toContainEqual({ what: 'Reports in words only (imaging, pathology)', count: 1 });
    expect(found.allergies).toEqual([{ substance: 'Shellfish', reaction: '', severity: null }]);
    expect(found.prescriptions).toEqual([
      expect.objectContaining({
        medicine_name: 'Levothyroxine',
        times: ['06:30'],
        start_date: '2026-01-05',
        end_date: null,
      }),
    ]);
  });

  it('reads results named once each, contained ones too, and neither flags a "<" value nor keeps a withdrawn one', async () => {
    const glucose = lab('g', {
      code: { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }] },
      valueQuantity: { value: 88, unit: 'mg/dL' },
      referenceRange: [{ low: { value: 70 }, high: { value: 99 } }],
    });
    const withdrawn = lab('w', {
      status: 'entered-in-error',
      code: { text: 'Potassium' },
      valueQuantity: { value: 999, unit: 'mmol/L' },
    });
    const crp = lab('c', {
      code: { text: 'CRP' },
      valueQuantity: { value: 10, comparator: '<', unit: 'mg/L' },
      referenceRange: [{ high: { value: 5 } }],
    });
    const report = {
      resourceType: 'DiagnosticReport',
      status: 'final',
      code: { text: 'Basic panel' },
      effectiveDateTime: '2026-02-03T08:00:00-05:00',
      contained: [lab('tsh', { code: { text: 'TSH' }, valueQuantity: { value: 2.1, unit: 'mIU/L' } })],
      // A result named a thousand times is one row.
      result: [
        ...Array.from({ length: 1000 }, () => ({ reference: 'Observation/g' })),
        { reference: 'Observation/w' },
        { reference: 'Observation/c/_history/3' },
        { reference: '#tsh' },
      ],
    };
    const found = await previewOf(patient, bundleOf(report, glucose, withdrawn, crp));
    expect(found.lab_reports).toHaveLength(1);
    expect(found.lab_reports[0]?.results.map((row) => `${row.name} ${row.value} ${row.flag}`)).toEqual([
      'Glucose 88 ',
      'CRP <10 ',
      'TSH 2.1 ',
    ]);
  });

  it('dates a UTC result by the patient’s day, which the device names', async () => {
    const evening = bundleOf(
      lab('late', {
        code: { text: 'Glucose' },
        valueQuantity: { value: 90 },
        effectiveDateTime: '2026-03-03T02:30:00Z',
      }),
    );
    const inNewYork = await previewOf(patient, evening, '?zone=America/New_York');
    expect(inNewYork.lab_reports[0]?.report_date).toBe('2026-03-02');
    const inTokyo = await previewOf(patient, evening, '?zone=Asia/Tokyo');
    expect(inTokyo.lab_reports[0]?.report_date).toBe('2026-03-03');
    const badZone = await preview(patient, evening, '?zone=Mars/Olympus');
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json<{ message: string }>().message).toBe(IMPORT_MESSAGES.zoneInvalid);
  });

  it('refuses a file that holds more than one person’s records', async () => {
    const answer = await preview(
      patient,
      bundleOf(
        { resourceType: 'Patient', name: [{ text: 'Eve Betterhalf' }] },
        { resourceType: 'Patient', name: [{ text: 'Isabella Jones' }] },
        { resourceType: 'AllergyIntolerance', code: { text: 'Egg' } },
      ),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toBe(IMPORT_MESSAGES.severalPatients);
  });
});

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
  '<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&lol3;</title></ClinicalDocument>';
const EXTERNAL_ENTITY =
  '<?xml version="1.0"?><!DOCTYPE doc [<!ENTITY secret SYSTEM "file:///etc/passwd">]>' +
  '<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&secret;</title></ClinicalDocument>';

describe('bad files get a sentence and change nothing', () => {
  const refused = async (bytes: Buffer, status: number, message: string) => {
    const answer = await preview(patient, bytes);
    expect(answer.statusCode, answer.body).toBe(status);
    expect(answer.json<{ message: string }>().message).toBe(message);
    return answer;
  };

  it('refuses entity expansion and external entities, and fetches nothing', async () => {
    await refused(Buffer.from(LAUGHS), 400, IMPORT_MESSAGES.entitiesRefused);
    const answer = await refused(Buffer.from(EXTERNAL_ENTITY), 400, IMPORT_MESSAGES.entitiesRefused);
    expect(answer.body).not.toContain('root:');
    // Inside a real document too, declared after the prolog's comment.
    const ccd = sample('ccd-1.xml')
      .toString('utf8')
      .replace(
        '<ClinicalDocument',
        '<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:1/">]>\n<ClinicalDocument',
      );
    await refused(Buffer.from(ccd), 400, IMPORT_MESSAGES.entitiesRefused);
  });

  it('says what is wrong with broken, foreign and empty files', async () => {
    await refused(sample('ccd-1.xml').subarray(0, 40_000), 400, IMPORT_MESSAGES.brokenXml);
    await refused(Buffer.from('{"resourceType": "Bundle", "entry": ['), 400, IMPORT_MESSAGES.brokenJson);
    await refused(Buffer.from('<html><body>My records</body></html>'), 400, IMPORT_MESSAGES.notRecognised);
    await refused(Buffer.from('{"name": "not FHIR"}'), 400, IMPORT_MESSAGES.notRecognised);
    await refused(Buffer.from('Allergies: penicillin'), 400, IMPORT_MESSAGES.notRecognised);
    await refused(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]),
      400,
      IMPORT_MESSAGES.notUtf8,
    );
    await refused(Buffer.from('{"resourceType": "MedicationOrder"}'), 400, IMPORT_MESSAGES.fhirNotR4);
    await refused(Buffer.alloc(0), 400, IMPORT_MESSAGES.fileMissing);
  });

  it('caps the size and the number of entries', async () => {
    await refused(Buffer.alloc(IMPORT_MAX_BYTES + 1, 0x20), 413, IMPORT_MESSAGES.tooLarge);
    const entries = Array.from({ length: IMPORT_MAX_ENTRIES + 1 }, () => '<entry/>').join('');
    await refused(
      Buffer.from(`<ClinicalDocument xmlns="urn:hl7-org:v3">${entries}</ClinicalDocument>`),
      413,
      IMPORT_MESSAGES.tooManyEntries,
    );
    const bundle = {
      resourceType: 'Bundle',
      entry: Array.from({ length: IMPORT_MAX_ENTRIES + 1 }, () => ({ resource: { resourceType: 'Basic' } })),
    };
    await refused(json(bundle), 413, IMPORT_MESSAGES.tooManyEntries);
  });

  it('wants a multipart form with the file in "file"', async () => {
    const plain = await as(ctx, patient, {
      method: 'POST',
      url: '/api/import/preview',
      payload: { file: 'x' },
    });
    expect(plain.statusCode).toBe(415);
    const form = multipartForm({}, [
      { field: 'document', filename: 'r.xml', contentType: 'application/xml', bytes: sample('ccd-1.xml') },
    ]);
    const misnamed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/import/preview',
      payload: form.payload,
      headers: form.headers,
    });
    expect(misnamed.statusCode).toBe(400);
    expect(misnamed.json<{ message: string }>().message).toBe(IMPORT_MESSAGES.fileMissing);
  });
});

describe('who may preview', () => {
  it('a caregiver linked to the patient, told which kinds their permissions let them add', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver', 'Carla Caregiver');
    await link(ctx, patient, caregiver, ['ReadPrescription', 'AddPrescription']);
    const found = await previewOf(caregiver, sample('ccd-1.xml'), `?patient=${patient.patientId}`);
    expect(found.patient_matches).toBe(true);
    expect(found.may_add).toEqual({
      allergies: false,
      conditions: false,
      immunizations: false,
      surgeries: false,
      prescriptions: true,
      lab_reports: false,
      vitals: false,
    });
  });

  it('refuses a caregiver who is not linked, one who names no patient, and another patient', async () => {
    const stranger = await makePerson(ctx, 'Caregiver', 'Stan Stranger');
    const unlinked = await preview(stranger, sample('ccd-1.xml'), `?patient=${patient.patientId}`);
    expect(unlinked.statusCode).toBe(403);
    expect(unlinked.body).not.toContain('Betterhalf');
    expect((await preview(stranger, sample('ccd-1.xml'))).statusCode).toBe(400);
    const other = await makePerson(ctx, 'Patient', 'Olga Other');
    expect((await preview(other, sample('ccd-1.xml'), `?patient=${patient.patientId}`)).statusCode).toBe(403);
    expect((await preview(patient, sample('ccd-1.xml'), '?patient=not-a-uuid')).statusCode).toBe(400);
  });

  it('refuses a caller without a session', async () => {
    const form = multipartForm({}, [
      { field: 'file', filename: 'r.xml', contentType: 'application/xml', bytes: sample('ccd-1.xml') },
    ]);
    const answer = await ctx.app.inject({
      method: 'POST',
      url: '/api/import/preview',
      payload: form.payload,
      headers: form.headers,
    });
    expect(answer.statusCode).toBe(401);
  });
});
