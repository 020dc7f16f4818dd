import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRESCRIPTION_OCR_MESSAGES } from '../../src/domain/prescription-ocr';
import { directoryDoctors, directoryPharmacies } from '../../src/server/db/schema';
import { matchByName } from '../../src/server/services/prescription-ocr';
import { drawLabel } from '../fixtures/labels';
import { TINY_PNG } from '../fixtures/images';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// "Add from a photo" on the real app with real OCR: a label photo is uploaded, POST
// /api/prescriptions/ocr reads it, and the fields come back for review, with the directions as dose times
// and the prescriber and pharmacy matched to the patient's own lists. Bad input and forbidden callers too.

let ctx: TestContext;
let patient: Person;
let doctorId: string;
let pharmacyId: string;
beforeAll(async () => {
  ctx = await startTestApp();
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  const place = {
    address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    latitude: 39.8,
    longitude: -89.6,
  };
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({ npi: '1234567893', name: 'Jane Smith', speciality: 'Family Medicine', ...place })
    .returning({ id: directoryDoctors.doctorId });
  const [pharmacy] = await ctx.database.db
    .insert(directoryPharmacies)
    .values({ npi: '3333333331', name: 'CVS PHARMACY #1234', ...place })
    .returning({ id: directoryPharmacies.pharmacyId });
  doctorId = doctor?.id ?? '';
  pharmacyId = pharmacy?.id ?? '';
});

async function upload(person: Person, bytes: Buffer, name = 'label.png'): Promise<string> {
  const form = multipartForm({}, [{ field: 'image', filename: name, contentType: 'image/png', bytes }]);
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=prescription',
    payload: form.payload,
    headers: form.headers,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ files: { key: string }[] }>().files[0]?.key ?? '';
}
const read = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/prescriptions/ocr', payload: body });

describe('POST /api/prescriptions/ocr', () => {
  it('reads a label photo into the fields of the form, the times and the patient’s own doctor and pharmacy', async () => {
    await as(ctx, patient, {
      method: 'POST',
      url: '/api/doctors/add',
      payload: { patient_id: patient.patientId, doctor_id: doctorId },
    });
    await as(ctx, patient, {
      method: 'POST',
      url: '/api/pharmacies/add',
      payload: { patient_id: patient.patientId, pharmacy_id: pharmacyId },
    });
    const key = await upload(patient, drawLabel('png').bytes);
    const response = await read(patient, { s3Key: key });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: PRESCRIPTION_OCR_MESSAGES.read,
      data: {
        medicine_name: expect.stringMatching(/^Metformin HCl$/i),
        strength: '500 mg',
        form: 'tablet',
        directions: expect.stringMatching(/twice daily with meals/i),
        quantity: 60,
        refills: 2,
        times: ['08:00', '18:00'],
        as_needed: false,
        directions_understood: true,
        doctor_id: doctorId,
        pharmacy_id: pharmacyId,
      },
    });
  }, 60_000);

  it('reads an iPhone’s HEIC photo of the label (kept as a JPEG as it arrives)', async () => {
    const heic = readFileSync(new URL('../fixtures/label.heic', import.meta.url));
    const key = await upload(patient, heic, 'IMG_0001.HEIC');
    expect(key).toMatch(/\.jpg$/);
    const response = await read(patient, { s3Key: key });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ data: { strength: '500 mg', quantity: 60, refills: 2 } });
  }, 60_000);

  it('says plainly when a photo holds nothing to read, and refuses files that are not the caller’s', async () => {
    const blank = await upload(patient, drawLabel('png', ['']).bytes, 'blank.png');
    const nothing = await read(patient, { s3Key: blank });
    expect(nothing.statusCode, nothing.body).toBe(200);
    expect(nothing.json()).toMatchObject({
      message: PRESCRIPTION_OCR_MESSAGES.nothingFound,
      data: { medicine_name: null, times: [] },
    });

    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    const strangers = await upload(stranger, TINY_PNG, 'theirs.png');
    const notMine = await read(patient, { s3Key: strangers });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().message).toBe(PRESCRIPTION_OCR_MESSAGES.fileUnknown);
    expect((await read(patient, { s3Key: '../../etc/passwd' })).statusCode).toBe(400);
    expect((await read(patient, {})).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/prescriptions/ocr', payload: { s3Key: blank } }))
        .statusCode,
    ).toBe(401);
  }, 60_000);

  it('lets a caregiver with AddPrescription read the patient’s photo, and nobody else', async () => {
    const key = await upload(patient, drawLabel('png').bytes);
    const adder = await makePerson(ctx, 'Caregiver', 'Adder');
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    await link(ctx, patient, adder, ['AddPrescription']);
    await link(ctx, patient, reader, ['ReadPrescription']);
    const byAdder = await read(adder, { s3Key: key, patient: patient.patientId });
    expect(byAdder.statusCode, byAdder.body).toBe(200);
    expect(byAdder.json().data.strength).toBe('500 mg');
    expect((await read(reader, { s3Key: key, patient: patient.patientId })).statusCode).toBe(403);
    // A caregiver who names no patient is asked to pick one.
    expect((await read(adder, { s3Key: key })).statusCode).toBe(400);
  }, 60_000);
});

describe('matchByName', () => {
  it('matches when every word of the label’s name is in exactly one entry’s name', () => {
    const doctors = [
      { name: 'JANE SMITH, MD', id: 'a' },
      { name: 'John Smith', id: 'b' },
    ];
    expect(matchByName('Dr. Jane Smith', doctors)?.id).toBe('a');
    expect(matchByName('Smith', doctors)).toBeNull(); // two Smiths: no guess
    expect(matchByName('Dr. Who', doctors)).toBeNull();
    expect(matchByName(null, doctors)).toBeNull();
    expect(matchByName('CVS Pharmacy', [{ name: 'CVS PHARMACY #1234', id: 'p' }])?.id).toBe('p');
  });
});
