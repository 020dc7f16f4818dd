import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LAB_REPORT_MESSAGES } from '../../src/domain/lab-reports';
import { directoryDoctors } from '../../src/server/db/schema';
import { drawLabel } from '../fixtures/labels';
import { loadDocument } from '../fixtures/lab-reports/corpus';
import { renderTextPdf } from '../fixtures/lab-reports/render';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// POST /api/lab-reports/ocr on the real app with the real OCR service: a report the
// patient uploaded is read into { data: { doctor_name, report_date, lab_results } }, the doctor
// matched to the patient's own doctors by name; a document that holds no results is answered with the
// product's message in { data: { error } }; files that are not the caller's, and callers without
// AddLabReport, are refused.

let ctx: TestContext;
let patient: Person;
let doctorId: string;
const report = loadDocument('classic-1');

beforeAll(async () => {
  ctx = await startTestApp();
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi: '1234567893',
      // As the directory spells it: a different case and a title the report may not print.
      name: `DR. ${report.truth.doctor_name.toUpperCase()}`,
      speciality: 'Internal Medicine',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      latitude: 39.8,
      longitude: -89.6,
    })
    .returning({ id: directoryDoctors.doctorId });
  doctorId = doctor?.id ?? '';
});

async function upload(person: Person, bytes: Buffer, contentType: string): Promise<string> {
  const form = multipartForm({}, [{ field: 'image', filename: 'report', contentType, bytes }]);
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=lab',
    payload: form.payload,
    headers: form.headers,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ files: { key: string }[] }>().files[0]?.key ?? '';
}
const read = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/lab-reports/ocr', payload: body });

type Extracted = {
  data: {
    doctor_name: string | null;
    report_date: string | null;
    doctor_id: string | null;
    report_type: string | null;
    source: string;
    lab_results: { name: string; value: string; code?: string }[];
  };
};

describe('POST /api/lab-reports/ocr', () => {
  it('reads a text PDF into the doctor, the date and the result rows, the doctor matched to the patient’s list', async () => {
    await as(ctx, patient, {
      method: 'POST',
      url: '/api/doctors/add',
      payload: { patient_id: patient.patientId, doctor_id: doctorId },
    });
    const key = await upload(patient, await renderTextPdf(report), 'application/pdf');
    const response = await read(patient, { s3Key: key });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json<Extracted>();
    expect(data).toMatchObject({
      report_date: report.truth.report_date,
      doctor_id: doctorId,
      source: 'text-layer',
    });
    expect(data.doctor_name?.toLowerCase()).toContain(report.truth.doctor_name.toLowerCase());
    expect(data.report_type).toEqual(expect.any(String));
    // Every row of the report, each with its value, known analytes with their LOINC code.
    expect(data.lab_results).toHaveLength(report.truth.lab_results.length);
    for (const truth of report.truth.lab_results) {
      const row = data.lab_results.find((found) => found.code === truth.code);
      expect(row?.value, truth.name).toBe(truth.value);
    }
  }, 60_000);

  it('leaves the doctor empty when none of the patient’s doctors matches', async () => {
    const key = await upload(patient, await renderTextPdf(report), 'application/pdf');
    const response = await read(patient, { s3Key: key });
    expect(response.json<Extracted>().data.doctor_id).toBeNull();
  }, 60_000);

  it('answers the product’s message for a document with no results, and refuses what is not the caller’s', async () => {
    const label = await upload(patient, drawLabel('png').bytes, 'image/png');
    const notALab = await read(patient, { s3Key: label });
    expect(notALab.statusCode, notALab.body).toBe(200);
    expect(notALab.json()).toEqual({ data: { error: LAB_REPORT_MESSAGES.notALabReport } });

    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    const theirs = await upload(stranger, await renderTextPdf(report), 'application/pdf');
    const notMine = await read(patient, { s3Key: theirs });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().message).toBe(LAB_REPORT_MESSAGES.fileUnknown);
    expect((await read(patient, { s3Key: '../../etc/passwd' })).statusCode).toBe(400);
    expect((await read(patient, {})).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/lab-reports/ocr', payload: { s3Key: label } }))
        .statusCode,
    ).toBe(401);
  }, 60_000);

  it('lets a caregiver with AddLabReport read the patient’s report, and not one who may only read', async () => {
    const key = await upload(patient, await renderTextPdf(report), 'application/pdf');
    const adder = await makePerson(ctx, 'Caregiver', 'Adder');
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    await link(ctx, patient, adder, ['ReadLabReport', 'AddLabReport']);
    await link(ctx, patient, reader, ['ReadLabReport']);
    const byAdder = await read(adder, { s3Key: key, patient: patient.patientId });
    expect(byAdder.statusCode, byAdder.body).toBe(200);
    expect(byAdder.json<Extracted>().data.lab_results.length).toBeGreaterThan(0);
    expect((await read(reader, { s3Key: key, patient: patient.patientId })).statusCode).toBe(403);
  }, 60_000);
});
