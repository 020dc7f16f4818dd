import { describe, expect, it } from 'vitest';
import { patientSummary, summaryFileName, type PatientSummary } from '../../../src/domain/patient-summary';
import { fhirErrors } from '../../fixtures/fhir-validator';
import { summaryInput, SUMMARY_PATIENT_ID } from '../../fixtures/summary-records';

// The patient summary as a FHIR R4 document: checked by a real validator (@medplum/core over the base
// specification), resource by resource and whole, and read back for what a doctor needs from it.

type Section = {
  title: string;
  code: { coding: { code: string }[] };
  text: { div: string };
  entry?: { reference: string }[];
  emptyReason?: { coding: { code: string }[] };
};

const composition = (bundle: PatientSummary) =>
  bundle.entry[0]?.resource as unknown as { section: Section[] };
const sectionOf = (bundle: PatientSummary, code: string) =>
  composition(bundle).section.find((section) => section.code.coding[0]?.code === code);
const resourcesOf = (bundle: PatientSummary, type: string) =>
  bundle.entry.map(({ resource }) => resource).filter((resource) => resource.resourceType === type);

describe('the patient summary', () => {
  it('is a document Bundle that a FHIR R4 validator finds no error in, whole and resource by resource', async () => {
    const bundle = await patientSummary(summaryInput());
    expect(await fhirErrors(bundle)).toEqual([]);
    for (const { resource } of bundle.entry)
      expect({ [resource.resourceType]: await fhirErrors(resource) }).toEqual({
        [resource.resourceType]: [],
      });
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      type: 'document',
      timestamp: '2026-11-29T10:00:00.000Z',
      identifier: { system: 'urn:ietf:rfc:3986' },
    });
    expect(bundle.entry[0]?.resource).toMatchObject({
      resourceType: 'Composition',
      type: { coding: [{ system: 'http://loinc.org', code: '60591-5' }] },
      subject: { reference: `urn:uuid:${SUMMARY_PATIENT_ID}` },
      author: [{ reference: `urn:uuid:${SUMMARY_PATIENT_ID}` }],
    });
  });

  it('has every section with what it holds, and every reference resolves inside the bundle', async () => {
    const bundle = await patientSummary(summaryInput());
    const codes = composition(bundle).section.map((section) => section.code.coding[0]?.code);
    expect(codes).toEqual(['10160-0', '48765-2', '11450-4', '11369-6', '47519-4', '30954-2', '8716-3']);
    const fullUrls = new Set(bundle.entry.map(({ fullUrl }) => fullUrl));
    expect(fullUrls.size).toBe(bundle.entry.length);
    const references = JSON.stringify(bundle).match(/"reference":"[^"]+"/g) ?? [];
    expect(references.length).toBeGreaterThan(40);
    for (const reference of references) expect(fullUrls).toContain(reference.slice(13, -1));
    expect(resourcesOf(bundle, 'MedicationStatement')).toHaveLength(4);
    expect(resourcesOf(bundle, 'AllergyIntolerance')).toHaveLength(2);
    expect(resourcesOf(bundle, 'Condition')).toHaveLength(2);
    expect(resourcesOf(bundle, 'Immunization')).toHaveLength(2);
    expect(resourcesOf(bundle, 'Procedure')).toHaveLength(1);
    expect(resourcesOf(bundle, 'DiagnosticReport')).toHaveLength(2);
    expect(resourcesOf(bundle, 'Practitioner')).toHaveLength(1);
    // 8 lab rows and 9 readings (at most five of each kind)
    expect(resourcesOf(bundle, 'Observation')).toHaveLength(17);
  });

  it('writes lab rows as coded Quantities with UCUM units, ranges and flags, and keeps unsure rows preliminary', async () => {
    const bundle = await patientSummary(summaryInput());
    const observation = (name: string) =>
      resourcesOf(bundle, 'Observation').find(
        (resource) => (resource.code as { text: string }).text === name,
      ) as Record<string, unknown>;
    expect(observation('Glucose')).toMatchObject({
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }] },
      valueQuantity: { value: 105, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
      referenceRange: [{ low: { value: 70 }, high: { value: 99 } }],
      interpretation: [{ coding: [{ code: 'H' }] }],
      effectiveDateTime: '2026-10-14',
    });
    expect(observation('eGFR')).toMatchObject({
      valueQuantity: { value: 58, code: 'mL/min/{1.73_m2}' },
      referenceRange: [{ low: { value: 60 }, text: '> OR = 60' }],
      interpretation: [{ coding: [{ code: 'L' }] }],
    });
    expect(observation('Creatinine')).toMatchObject({ valueQuantity: { value: 0.5, comparator: '<' } });
    expect(observation('Platelets')).toMatchObject({
      status: 'preliminary',
      valueQuantity: { value: 1240, code: '10*3/uL' },
      note: [{ text: expect.stringContaining('not yet checked') }],
    });
    expect(observation('HIV 1/2 Ab')).toMatchObject({ valueString: 'NON-REACTIVE' });
    // A unit nobody can be sure of keeps its text and gets no code.
    expect(observation('Odd thing')).toMatchObject({
      valueQuantity: { value: 12, unit: 'zorbs' },
      referenceRange: [{ text: 'Not Estab.' }],
    });
    expect((observation('Odd thing').valueQuantity as Record<string, unknown>).code).toBeUndefined();
    const [latest] = resourcesOf(bundle, 'DiagnosticReport');
    expect(latest).toMatchObject({ status: 'preliminary', code: { text: 'Comprehensive Metabolic Panel' } });
  });

  it('writes vitals with their LOINC codes and UCUM units, blood pressure as its two parts', async () => {
    const bundle = await patientSummary(summaryInput());
    const vitals = resourcesOf(bundle, 'Observation').filter((resource) =>
      JSON.stringify(resource.category).includes('vital-signs'),
    );
    expect(
      vitals.map((vital) => (vital.code as { coding: { code: string }[] }).coding[0]?.code).sort(),
    ).toEqual(
      ['15074-8', '2339-0', '29463-7', '29463-7', '59408-5', '8310-5', '8310-5', '85354-9', '8867-4'].sort(),
    );
    expect(vitals.find((vital) => (vital.code as { text: string }).text === 'Blood pressure')).toMatchObject({
      component: [
        { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 132, code: 'mm[Hg]' } },
        { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: 84, code: 'mm[Hg]' } },
      ],
    });
    expect(JSON.stringify(vitals)).toContain('"code":"[lb_av]"');
    expect(JSON.stringify(vitals)).toContain('"code":"[degF]"');
    expect(JSON.stringify(vitals)).toContain('Blood glucose (fasting)');
  });

  it('says why a section the summary always has is empty: nothing recorded, or not shared', async () => {
    const nothing = await patientSummary(
      summaryInput({
        records: { prescriptions: [], medical_history: [], lab_reports: [], vitals: [], doctors: [] },
      }),
    );
    expect(await fhirErrors(nothing)).toEqual([]);
    expect(composition(nothing).section.map((section) => section.emptyReason?.coding[0]?.code)).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
    expect(sectionOf(nothing, '10160-0')?.text.div).toContain('None recorded');

    const caregiverView = await patientSummary(
      summaryInput({
        author: { kind: 'caregiver', id: '11111111-2222-4333-8444-555555555555', name: 'Cora Carer' },
        records: { prescriptions: summaryInput().records.prescriptions ?? [] },
      }),
    );
    expect(await fhirErrors(caregiverView)).toEqual([]);
    expect(sectionOf(caregiverView, '10160-0')?.entry).toHaveLength(4);
    for (const code of ['48765-2', '11450-4']) {
      expect(sectionOf(caregiverView, code)?.emptyReason?.coding[0]?.code).toBe('withheld');
      expect(sectionOf(caregiverView, code)?.entry).toBeUndefined();
    }
    // Nothing the caregiver may not read is in it.
    expect(JSON.stringify(caregiverView)).not.toMatch(/Penicillin|Comprehensive|Maria Lopez|Type 2/);
    expect(resourcesOf(caregiverView, 'RelatedPerson')).toMatchObject([
      { patient: { reference: `urn:uuid:${SUMMARY_PATIENT_ID}` }, name: [{ text: 'Cora Carer' }] },
    ]);
  });

  it('escapes what people typed in its narrative', async () => {
    const bundle = await patientSummary(summaryInput());
    const div = sectionOf(bundle, '10160-0')?.text.div ?? '';
    expect(div).toContain('Amoxicillin &lt;generic&gt; &amp; co');
    expect(div).not.toContain('<generic>');
  });

  it('is the same document for the same records, whatever order they come in', async () => {
    const input = summaryInput();
    const shuffled = summaryInput({
      records: Object.fromEntries(
        Object.entries(input.records).map(([key, list]) => [key, [...(list as unknown[])].reverse()]),
      ),
    });
    expect(await patientSummary(shuffled)).toEqual(await patientSummary(input));
  });

  it('is saved under a file name of the patient and the day', () => {
    expect(summaryFileName('Pat O’Brien', '2026-11-29T10:00:00.000Z')).toBe(
      'kincare-summary-pat-o-brien-2026-11-29.json',
    );
    expect(summaryFileName('李', '2026-11-29T10:00:00.000Z')).toBe('kincare-summary-patient-2026-11-29.json');
  });
});
