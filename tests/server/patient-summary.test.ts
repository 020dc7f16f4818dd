import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { medicalHistoryId } from '../../src/domain/medical-history';
import {
  patientSummary,
  type PatientSummary,
  type PatientSummaryInput,
} from '../../src/domain/patient-summary';
import type { Change, PullResponse } from '../../src/domain/sync';
import { eq } from 'drizzle-orm';
import { directoryDoctors, users } from '../../src/server/db/schema';
import { fhirErrors } from '../fixtures/fhir-validator';
import {
  sentFieldsOf,
  summaryHistory,
  summaryLabReports,
  summaryPrescriptions,
  summaryVitals,
} from '../fixtures/summary-records';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// GET /api/export/fhir on the real app: a patient with every kind of record (sent as a device sends them),
// the document checked by a FHIR R4 validator, the same document the device makes from what the pull gave
// it, a caregiver's summary holding only what they may read, and who may not ask at all.

let ctx: TestContext;
let patient: Person;

beforeAll(async () => {
  ctx = await startTestApp();
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Summary');
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** Every kind of record of the fixture, as `person`'s device sends them (a batched push). */
async function seedRecords(person: Person) {
  const patientId = person.patientId ?? '';
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi: '1234567893',
      name: 'Maria Lopez',
      speciality: 'Internal Medicine',
      address: '100 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      phone: '217-555-0100',
    })
    .returning({ id: directoryDoctors.doctorId });
  // A lab report comes with its file: uploaded first, as a device does.
  const form = multipartForm({}, [
    { field: 'image', filename: 'report.pdf', contentType: 'application/pdf', bytes: PDF },
  ]);
  const uploaded = await as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=lab',
    payload: form.payload,
    headers: form.headers,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const attachment = uploaded.json<{ files: { key: string }[] }>().files[0]?.key;
  const change = (resource: string, record: object, id: string = randomUUID()) => ({
    idempotency_key: randomUUID(),
    resource,
    op: 'create',
    id,
    payload: { ...sentFieldsOf(record), patient_id: patientId },
  });
  const changes = [
    ...summaryPrescriptions.map((record) => change('prescriptions', record)),
    ...summaryLabReports.map((record) => change('lab_reports', { ...record, attachment_key: attachment })),
    ...summaryVitals.map((record) => change('vitals', record)),
    change('medical_history', summaryHistory, await medicalHistoryId(patientId)),
    change('doctors', { doctor_id: doctor?.id }),
  ];
  // And one the patient deleted since: no longer theirs to hand over.
  const deleted = change('prescriptions', { ...summaryPrescriptions[0], medicine_name: 'Deleted Medicine' });
  changes.push(deleted, {
    idempotency_key: randomUUID(),
    resource: 'prescriptions',
    op: 'delete',
    id: deleted.id,
    payload: { patient_id: patientId },
  });
  const pushed = await as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
  expect(pushed.statusCode, pushed.body).toBe(200);
  for (const result of pushed.json<{ results: { status: number; body: unknown }[] }>().results)
    expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
}

function summaryOf(person: Person, query = `?patient=${patient.patientId}`) {
  return as(ctx, person, { method: 'GET', url: `/api/export/fhir${query}` });
}

/** What a device holds after pulling as `person`: each resource's live records. */
async function pulled(person: Person): Promise<Record<string, object[]>> {
  const held = new Map<string, Change>();
  let token: string | undefined;
  for (;;) {
    const answer = await as(ctx, person, {
      method: 'GET',
      url: `/api/sync/pull?cursor=0&limit=500${token ? `&token=${token}` : ''}`,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json<PullResponse>();
    for (const change of page.changes) held.set(`${change.resource}:${change.id}`, change);
    if (!page.more) break;
    token = page.token;
  }
  const byResource: Record<string, object[]> = {};
  for (const change of held.values())
    if (change.data) (byResource[change.resource] ??= []).push(change.data as object);
  return byResource;
}

const bundleOf = (body: string) => JSON.parse(body) as PatientSummary;

describe('GET /api/export/fhir', () => {
  it("answers the patient's summary as a FHIR document a validator finds no error in, to save as a file", async () => {
    await seedRecords(patient);
    const answer = await summaryOf(patient, '');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="kincare-summary-pat-summary-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(answer.headers['cache-control']).toBe('no-store');
    const bundle = bundleOf(answer.body);
    expect(await fhirErrors(bundle)).toEqual([]);
    const types = bundle.entry.map(({ resource }) => resource.resourceType);
    for (const type of [
      'Composition',
      'Patient',
      'Practitioner',
      'MedicationStatement',
      'AllergyIntolerance',
      'Condition',
      'Immunization',
      'Procedure',
      'DiagnosticReport',
      'Observation',
    ])
      expect(types).toContain(type);
    expect(bundle.entry[0]?.resource.resourceType).toBe('Composition');
    expect(answer.body).not.toContain('Deleted Medicine');
  });

  it('is the same document the device makes from the records its pull gave it', async () => {
    await seedRecords(patient);
    // The profile's birth date and gender are the patient's own to give.
    await ctx.database.db
      .update(users)
      .set({ birthDate: '1958-03-14', gender: 'Female' })
      .where(eq(users.id, patient.userId));
    const answer = await summaryOf(patient);
    const server = bundleOf(answer.body);
    const held = await pulled(patient);
    const device = await patientSummary({
      patient: {
        id: patient.patientId ?? '',
        name: 'Pat Summary',
        birth_date: '1958-03-14',
        gender: 'Female',
      },
      author: { kind: 'patient' },
      records: held as PatientSummaryInput['records'],
      generatedAt: server.timestamp as string,
      documentId: server.id,
    });
    expect(server).toEqual(device);
    expect(server.entry[1]?.resource).toMatchObject({ birthDate: '1958-03-14', gender: 'female' });
  });

  it('gives a caregiver only what they may read, the rest marked withheld', async () => {
    await seedRecords(patient);
    const carer = await makePerson(ctx, 'Caregiver', 'Cora Carer');
    await link(ctx, patient, carer, ['ReadPrescription']);
    const answer = await summaryOf(carer);
    expect(answer.statusCode, answer.body).toBe(200);
    const bundle = bundleOf(answer.body);
    expect(await fhirErrors(bundle)).toEqual([]);
    const types = new Set(bundle.entry.map(({ resource }) => resource.resourceType));
    expect([...types].sort()).toEqual(['Composition', 'MedicationStatement', 'Patient', 'RelatedPerson']);
    expect(answer.body).not.toMatch(/Penicillin|Comprehensive|Maria Lopez|Type 2|Influenza/);
    expect(answer.body).toContain('"code":"withheld"');
    // The same as the caregiver's device makes from its pull.
    const device = await patientSummary({
      patient: { id: patient.patientId ?? '', name: 'Pat Summary' },
      author: { kind: 'caregiver', id: carer.caregiverId ?? '', name: 'Cora Carer' },
      records: { prescriptions: [], ...(await pulled(carer)) } as PatientSummaryInput['records'],
      generatedAt: bundle.timestamp as string,
      documentId: bundle.id,
    });
    expect(bundle).toEqual(device);
  });

  it('refuses a caregiver not linked to the patient, another patient, and a patient named by nobody', async () => {
    await seedRecords(patient);
    const stranger = await makePerson(ctx, 'Caregiver', 'Sam Stranger');
    const other = await makePerson(ctx, 'Patient', 'Olive Other');
    for (const person of [stranger, other]) {
      const answer = await summaryOf(person);
      expect(answer.statusCode).toBe(403);
      expect(answer.body).not.toMatch(/Metformin|Pat Summary/);
    }
    const unnamed = await summaryOf(stranger, '');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject({ message: 'Please select patient.' });
  });

  it('refuses a patient id that is no UUID, and a call without a session', async () => {
    const bad = await summaryOf(patient, '?patient=../../etc');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Choose a valid patient.');
    const unknown = await summaryOf(patient, `?patient=${randomUUID()}`);
    expect(unknown.statusCode).toBe(403);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/export/fhir?patient=${patient.patientId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers an empty summary for a new patient, each always-there section saying nothing is recorded', async () => {
    const answer = await summaryOf(patient);
    expect(answer.statusCode).toBe(200);
    const bundle = bundleOf(answer.body);
    expect(await fhirErrors(bundle)).toEqual([]);
    expect(answer.body.match(/"code":"unavailable"/g)).toHaveLength(3);
  });
});
