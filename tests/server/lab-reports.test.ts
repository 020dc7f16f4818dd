import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { imageSize } from 'image-size';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LAB_REPORT_MESSAGES } from '../../src/domain/lab-reports';
import { UPLOAD_MESSAGES } from '../../src/domain/uploads';
import { directoryDoctors, uploads } from '../../src/server/db/schema';
import { TINY_PNG } from '../fixtures/images';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// Lab reports on the real app: add and update as the multipart form (report_type,
// report_date, patient_id, doctor_id, report_ocr as JSON text, the report_image file) and as JSON naming
// an uploaded file, through POST /api/sync/push too; the list and its filters; delete, which removes the
// file; every bad input with its message; what caregivers may and may not do.

let ctx: TestContext;
let patient: Person;
let doctorId: string;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
  const [doctor] = await ctx.database.db
    .insert(directoryDoctors)
    .values({
      npi: '1234567893',
      name: 'Dr. Jane Smith',
      speciality: 'Family Medicine',
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

/** A one-page PDF, as a scanner or a lab's portal gives it (the bytes are checked, not the name). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

const rows = [
  { name: 'Glucose', value: '105', unit: 'mg/dL', flag: 'H', reference_range: '70-99', code: '2345-7' },
  {
    name: 'Hemoglobin A1c',
    value: '31',
    unit: '%',
    flag: '',
    reference_range: '4.0-5.6',
    code: '4548-4',
    needs_review: true,
  },
];
const reportOcr = (results = rows) =>
  JSON.stringify({ doctor_name: 'Jane Smith', report_date: '2026-11-02', lab_results: results });

const fields = (overrides: Record<string, string> = {}) => ({
  report_type: 'Blood Test',
  report_date: '2026-11-02',
  patient_id: patient.patientId ?? '',
  doctor_id: doctorId,
  report_ocr: reportOcr(),
  ...overrides,
});

type Report = {
  id: string;
  lab_report_id: string;
  report_image: string | null;
  attachment_key: string | null;
  creation_date: string;
  report_type: string;
  report_date: string;
  results: { name: string; needs_review?: boolean }[];
};

function addForm(person: Person, form: Record<string, string>, file: Buffer | null = PDF, name = 'r.pdf') {
  const body = multipartForm(
    form,
    file ? [{ field: 'report_image', filename: name, contentType: 'application/pdf', bytes: file }] : [],
  );
  return as(ctx, person, {
    method: 'POST',
    url: '/api/lab-reports',
    payload: body.payload,
    headers: body.headers,
  });
}
function updateForm(person: Person, id: string, form: Record<string, string>) {
  const body = multipartForm({ lab_report_id: id, ...form });
  return as(ctx, person, {
    method: 'PUT',
    url: `/api/lab-reports/${id}`,
    payload: body.payload,
    headers: body.headers,
  });
}
const list = async (person: Person, query = '') => {
  const response = await as(ctx, person, { method: 'GET', url: `/api/lab-reports${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Report[] }>().data;
};
const remove = (person: Person, id: string) =>
  as(ctx, person, { method: 'DELETE', url: `/api/lab-reports/${id}` });
const messageOf = (response: { json: () => unknown }) => (response.json() as { message: string }).message;

async function upload(person: Person, bytes: Buffer = PDF): Promise<string> {
  const form = multipartForm({}, [
    { field: 'image', filename: 'r.pdf', contentType: 'application/pdf', bytes },
  ]);
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=lab',
    payload: form.payload,
    headers: form.headers,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ files: { key: string }[] }>().files[0]?.key ?? '';
}

describe('lab reports', () => {
  it('adds from the multipart form, lists, filters, updates and deletes (the file goes too)', async () => {
    const created = await addForm(patient, fields());
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<{ data: Report; message: string }>();
    expect(report.message).toBe(LAB_REPORT_MESSAGES.uploaded);
    const { id } = report.data;
    expect(report.data).toMatchObject({
      lab_report_id: id,
      report_type: 'Blood Test',
      report_date: '2026-11-02',
      doctor_id: doctorId,
      report_ocr: reportOcr(),
      // The rows of report_ocr kept structured, for trends.
      results: [
        expect.objectContaining({ name: 'Glucose', value: '105', code: '2345-7' }),
        expect.objectContaining({ name: 'Hemoglobin A1c', needs_review: true }),
      ],
    });
    expect(report.data.report_image).toMatch(/^lab\/[0-9a-f]{32}\/[0-9a-f]{32}\.pdf$/);
    expect(report.data.report_image).toBe(report.data.attachment_key);
    expect(Date.parse(report.data.creation_date)).not.toBeNaN();
    const key = report.data.report_image ?? '';
    expect((await ctx.app.storage.read(key))?.contentType).toBe('application/pdf');

    // A second report (by JSON, naming an uploaded file; the date as the pickers write it) and the filters.
    const second = await as(ctx, patient, {
      method: 'POST',
      url: '/api/lab-reports',
      payload: {
        ...fields({ report_type: 'Lipid Panel', report_date: '2026/10/15', report_ocr: '' }),
        doctor_id: null,
        attachment_key: await upload(patient),
      },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json<{ data: Report }>().data.report_date).toBe('2026-10-15');
    const types = (reports: Report[]) => reports.map((entry) => entry.report_type);
    expect(types(await list(patient))).toEqual(['Blood Test', 'Lipid Panel']); // newest report first
    expect(types(await list(patient, `?doctor=${doctorId}`))).toEqual(['Blood Test']);
    expect(types(await list(patient, '?doctor=all&status=all'))).toHaveLength(2);
    expect(types(await list(patient, '?startDate=2026/10/01&endDate=2026/10/31'))).toEqual(['Lipid Panel']);
    expect(types(await list(patient, '?startDate=2026-11-01'))).toEqual(['Blood Test']);
    expect(types(await list(patient, '?status=needs_review'))).toEqual(['Blood Test']);
    expect(types(await list(patient, '?status=reviewed'))).toEqual(['Lipid Panel']);

    // Update from the form (which may repeat lab_report_id): the reviewed row is no longer doubtful.
    const reviewed = reportOcr([{ ...rows[1]!, value: '3.1', needs_review: false }]);
    const updated = await updateForm(patient, id, { report_type: 'Hemoglobin A1c', report_ocr: reviewed });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(messageOf(updated)).toBe(LAB_REPORT_MESSAGES.updated);
    expect(updated.json<{ data: Report }>().data).toMatchObject({
      report_type: 'Hemoglobin A1c',
      report_date: '2026-11-02',
      results: [expect.objectContaining({ value: '3.1', needs_review: false })],
    });
    expect(types(await list(patient, '?status=needs_review'))).toEqual([]);

    const deleted = await remove(patient, id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    // Its file and the way to a link for it are gone by the time the answer arrives: checked before
    // anything else runs, since a removal after the answer would still finish during the next request.
    const [uploadRow] = await ctx.app.db.select().from(uploads).where(eq(uploads.key, key));
    expect(uploadRow).toBeUndefined();
    expect(await ctx.app.storage.read(key)).toBeNull();
    const preview = await as(ctx, patient, {
      method: 'GET',
      url: `/api/upload-image/preview_image?key=${key}`,
    });
    expect(preview.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ success: true, message: LAB_REPORT_MESSAGES.deleted });
    expect(types(await list(patient))).toEqual(['Lipid Panel']);
    // Deleting it again (a device that did not hear the answer) changes nothing.
    expect((await remove(patient, id)).statusCode).toBe(200);
    expect(types(await list(patient))).toEqual(['Lipid Panel']);
  });

  it('judges a future report date at tomorrow’s edge in UTC, where a zone ahead of it already is', async () => {
    const dayInUtc = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const offset of [0, 1]) {
      const response = await addForm(patient, fields({ report_date: dayInUtc(offset) }));
      expect(response.statusCode, `${dayInUtc(offset)}: ${response.body}`).toBe(201);
    }
    const past = await addForm(patient, fields({ report_date: dayInUtc(2) }));
    expect([past.statusCode, messageOf(past)]).toEqual([400, LAB_REPORT_MESSAGES.reportDateFuture]);
  });

  it('refuses bad input with the product’s messages and stores nothing', async () => {
    const cases: [Record<string, string>, Buffer | null, number, string][] = [
      [fields({ report_date: '' }), PDF, 400, LAB_REPORT_MESSAGES.reportDateRequired],
      [fields({ report_date: '2999-01-01' }), PDF, 400, LAB_REPORT_MESSAGES.reportDateFuture],
      [fields({ report_date: '2026-02-30' }), PDF, 400, LAB_REPORT_MESSAGES.dateInvalid],
      [fields({ report_date: 'yesterday' }), PDF, 400, LAB_REPORT_MESSAGES.dateInvalid],
      [fields(), null, 400, LAB_REPORT_MESSAGES.fileRequired],
      [fields({ report_type: '  ' }), PDF, 400, LAB_REPORT_MESSAGES.reportTypeRequired],
      [fields({ report_type: 'x'.repeat(101) }), PDF, 400, LAB_REPORT_MESSAGES.reportTypeTooLong],
      [fields({ doctor_id: randomUUID() }), PDF, 400, LAB_REPORT_MESSAGES.doctorInvalid],
      [fields({ doctor_id: 'dr-house' }), PDF, 400, LAB_REPORT_MESSAGES.doctorInvalid],
      [fields({ report_ocr: '{"lab_results": "many"}' }), PDF, 400, LAB_REPORT_MESSAGES.reportOcrInvalid],
      [fields({ report_ocr: 'not json' }), PDF, 400, LAB_REPORT_MESSAGES.reportOcrInvalid],
      [fields({ patient_id: 'me' }), PDF, 400, LAB_REPORT_MESSAGES.patientInvalid],
      [fields(), Buffer.from('just some text, not a report'), 415, UPLOAD_MESSAGES.fileType],
    ];
    for (const [form, file, status, message] of cases) {
      const response = await addForm(patient, form, file);
      expect(response.statusCode, `${JSON.stringify(form).slice(0, 80)} ${response.body}`).toBe(status);
      expect(messageOf(response)).toBe(message);
    }
    // A report row with no value is not a result.
    const noValue = await addForm(
      patient,
      fields({ report_ocr: JSON.stringify({ lab_results: [{ ...rows[0], value: ' ' }] }) }),
    );
    expect(noValue.statusCode).toBe(400);
    expect(messageOf(noValue)).toBe(LAB_REPORT_MESSAGES.reportOcrInvalid);
    expect(await list(patient)).toEqual([]);
    // Filters that are not filters.
    for (const query of [
      '?doctor=nobody',
      '?status=lost',
      '?startDate=tomorrow',
      '?startDate=2026-12-01&endDate=2026-11-01',
    ]) {
      expect(
        (await as(ctx, patient, { method: 'GET', url: `/api/lab-reports${query}` })).statusCode,
        query,
      ).toBe(400);
    }
    // Someone else's file, and a key that is not a key.
    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    const theirs = await upload(stranger);
    for (const attachment_key of [theirs, '../../etc/passwd']) {
      const response = await as(ctx, patient, {
        method: 'POST',
        url: '/api/lab-reports',
        payload: { ...fields(), attachment_key },
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/lab-reports' })).statusCode).toBe(401);
  });

  it('lets caregivers do what their permissions say, and no more', async () => {
    const created = await addForm(patient, fields());
    const { id } = created.json<{ data: Report }>().data;
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    const adder = await makePerson(ctx, 'Caregiver', 'Adder');
    const stranger = await makePerson(ctx, 'Caregiver', 'Stranger');
    await link(ctx, patient, reader, ['ReadLabReport']);
    await link(ctx, patient, adder, ['ReadLabReport', 'AddLabReport', 'EditLabReport', 'DeleteLabReport']);
    const forPatient = `?patient=${patient.patientId}`;

    expect(await list(reader, forPatient)).toHaveLength(1);
    // Read only: no adding (by the form, by JSON, or from a device's queue), editing or deleting.
    const refused = await addForm(reader, fields());
    expect(refused.statusCode).toBe(403);
    const readersFile = await upload(reader);
    const byJson = await as(ctx, reader, {
      method: 'POST',
      url: '/api/lab-reports',
      payload: { ...fields(), attachment_key: readersFile },
    });
    expect(byJson.statusCode).toBe(403);
    const queued = await as(ctx, reader, {
      method: 'POST',
      url: '/api/sync/push',
      payload: {
        changes: [
          {
            idempotency_key: randomUUID(),
            resource: 'lab_reports',
            op: 'create',
            id: randomUUID(),
            payload: { ...fields(), attachment_key: readersFile },
          },
        ],
      },
    });
    expect(queued.json<{ results: { status: number }[] }>().results[0]?.status).toBe(403);
    expect((await updateForm(reader, id, { report_type: 'Mine' })).statusCode).toBe(403);
    expect((await remove(reader, id)).statusCode).toBe(403);
    expect(
      (
        await as(ctx, reader, {
          method: 'POST',
          url: '/api/lab-reports/ocr',
          payload: { s3Key: 'lab/' + '0'.repeat(32) + '.pdf', patient: patient.patientId },
        })
      ).statusCode,
    ).toBe(403);
    // Not linked: the records do not exist for them.
    expect(
      (await as(ctx, stranger, { method: 'GET', url: `/api/lab-reports${forPatient}` })).statusCode,
    ).toBe(403);
    expect((await remove(stranger, id)).statusCode).toBe(404);
    expect((await updateForm(stranger, id, { report_type: 'Mine' })).statusCode).toBe(404);

    // With the permissions: add for the patient, edit, delete.
    const added = await addForm(adder, fields({ report_type: 'Thyroid Panel' }));
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<{ data: Report & { caregiver_id: string } }>().data.caregiver_id).toBe(
      adder.caregiverId,
    );
    expect((await updateForm(adder, id, { report_type: 'Renamed' })).statusCode).toBe(200);
    expect((await remove(adder, id)).statusCode).toBe(200);
    expect((await list(patient)).map((report) => report.report_type)).toEqual(['Thyroid Panel']);
  });

  it('replays adds, edits and deletes from a device through POST /api/sync/push, the file removed after the commit', async () => {
    const key = await upload(patient);
    const id = randomUUID();
    const push = (changes: unknown[]) =>
      as(ctx, patient, { method: 'POST', url: '/api/sync/push', payload: { changes } });
    const created = await push([
      {
        idempotency_key: randomUUID(),
        resource: 'lab_reports',
        op: 'create',
        id,
        payload: { ...fields(), attachment_key: key },
      },
      {
        idempotency_key: randomUUID(),
        resource: 'lab_reports',
        op: 'create',
        id: randomUUID(),
        payload: { ...fields({ report_date: '2999-01-01' }), attachment_key: key },
      },
    ]);
    expect(created.statusCode, created.body).toBe(200);
    const results = created.json<{ results: { status: number; body: { message: string } }[] }>().results;
    expect(results.map((result) => result.status)).toEqual([201, 400]);
    expect(results[1]?.body.message).toBe(LAB_REPORT_MESSAGES.reportDateFuture);

    const edited = await push([
      {
        idempotency_key: randomUUID(),
        resource: 'lab_reports',
        op: 'update',
        id,
        base_version: 1,
        payload: { report_type: 'CBC' },
      },
    ]);
    expect(edited.json<{ results: { status: number }[] }>().results[0]?.status).toBe(200);
    expect((await list(patient))[0]?.report_type).toBe('CBC');

    const deleted = await push([
      { idempotency_key: randomUUID(), resource: 'lab_reports', op: 'delete', id },
    ]);
    expect(deleted.json<{ results: { status: number }[] }>().results[0]?.status).toBe(200);
    expect(await list(patient)).toEqual([]);
    expect(await ctx.app.storage.read(key)).toBeNull();
  });

  it('keeps a file another live report still holds when one of them is deleted', async () => {
    const key = await upload(patient);
    const add = (report_type: string) =>
      as(ctx, patient, {
        method: 'POST',
        url: '/api/lab-reports',
        payload: { ...fields({ report_type }), attachment_key: key },
      });
    const first = (await add('First')).json<{ data: Report }>().data.id;
    expect((await add('Second')).statusCode).toBe(201);
    expect((await remove(patient, first)).statusCode).toBe(200);
    expect(await ctx.app.storage.read(key)).not.toBeNull();
  });

  it('refuses a file under another field name', async () => {
    const wrongField = multipartForm(fields(), [
      { field: 'photo', filename: 'a.png', contentType: 'image/png', bytes: TINY_PNG },
    ]);
    const response = await as(ctx, patient, {
      method: 'POST',
      url: '/api/lab-reports',
      payload: wrongField.payload,
      headers: wrongField.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(await list(patient)).toEqual([]);
  });

  it('keeps an iPhone’s HEIC photo as a JPEG, and refuses one that cannot be decoded', async () => {
    const heic = readFileSync(new URL('../fixtures/label.heic', import.meta.url));
    const created = await addForm(patient, fields(), heic, 'IMG_0001.HEIC');
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ data: Report }>().data.report_image ?? '';
    expect(key).toMatch(/^lab\/[0-9a-f]{32}\/[0-9a-f]{32}\.jpg$/);
    const stored = await ctx.app.storage.read(key);
    expect(stored?.contentType).toBe('image/jpeg');
    // The whole photo, decoded: the drawn label is 1200 x 600.
    expect(imageSize(stored!.bytes)).toMatchObject({ width: 1200, height: 600 });

    const broken = Buffer.concat([heic.subarray(0, 64), Buffer.alloc(2000, 7)]);
    const refused = await addForm(patient, fields(), broken, 'IMG_0002.HEIC');
    expect(refused.statusCode).toBe(400);
    expect(messageOf(refused)).toBe(UPLOAD_MESSAGES.imageUnreadable);
    expect(await list(patient)).toHaveLength(1);
  });
});
