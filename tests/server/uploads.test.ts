import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import { UPLOAD_MESSAGES } from '../../src/domain/uploads';
import { uploads } from '../../src/server/db/schema';
import { removeOrphanAttachments } from '../../src/server/services/orphan-files';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { TINY_PNG } from '../fixtures/images';
import { as, link, makePerson, type Person } from './fixtures';

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function upload(person: Person, type: string, bytes: Buffer, options: { field?: string; key?: string } = {}) {
  const form = multipartForm({}, [
    { field: options.field ?? 'image', filename: 'letter.png', contentType: 'image/png', bytes },
  ]);
  return as(ctx, person, {
    method: 'POST',
    url: `/api/upload-image?type=${type}`,
    payload: form.payload,
    headers: { ...form.headers, ...(options.key ? { 'idempotency-key': options.key } : {}) },
  });
}

describe('POST /api/upload-image', () => {
  it('stores a photo or PDF checked by its real type and answers its key and a working signed link', async () => {
    const response = await upload(patient, 'appointment', TINY_PNG);
    expect(response.statusCode).toBe(201);
    const [file] = response.json().files;
    expect(file.key).toMatch(/^appointment\/[0-9a-f]{32}\.png$/);
    const served = await ctx.app.inject({ method: 'GET', url: file.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await upload(patient, 'lab', PDF)).json().files[0].key).toMatch(/\.pdf$/);
  });

  it('refuses what is not a photo or PDF, a wrong type, a missing file and a non-multipart body', async () => {
    const text = await upload(patient, 'lab', Buffer.from('just some text pretending to be an image'));
    expect([text.statusCode, text.json().message]).toEqual([415, UPLOAD_MESSAGES.fileType]);
    const pdfAsProfile = await upload(patient, 'profile', PDF);
    expect([pdfAsProfile.statusCode, pdfAsProfile.json().message]).toEqual([
      415,
      UPLOAD_MESSAGES.profileType,
    ]);
    const badType = await upload(patient, 'selfie', TINY_PNG);
    expect([badType.statusCode, badType.json().message]).toEqual([400, UPLOAD_MESSAGES.typeInvalid]);
    const wrongField = await upload(patient, 'lab', TINY_PNG, { field: 'photo' });
    expect([wrongField.statusCode, wrongField.json().message]).toEqual([400, UPLOAD_MESSAGES.fileMissing]);
    const json = await as(ctx, patient, {
      method: 'POST',
      url: '/api/upload-image?type=lab',
      payload: { image: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
  });

  it('refuses a file over the upload limit with 413', async () => {
    const small = await startTestApp({ UPLOAD_LIMIT_BYTES: '2048' });
    try {
      const person = await makePerson(small, 'Patient');
      const big = Buffer.concat([TINY_PNG, Buffer.alloc(4096)]);
      const form = multipartForm({}, [
        { field: 'image', filename: 'big.png', contentType: 'image/png', bytes: big },
      ]);
      const response = await small.app.inject({
        method: 'POST',
        url: '/api/upload-image?type=lab',
        payload: form.payload,
        headers: { ...form.headers, authorization: `Bearer ${person.token}` },
      });
      expect(response.statusCode).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('stores a file once per Idempotency-Key', async () => {
    const first = await upload(patient, 'appointment', TINY_PNG, { key: 'upload-key-0001' });
    const again = await upload(patient, 'appointment', TINY_PNG, { key: 'upload-key-0001' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().files[0].key).toBe(first.json().files[0].key);
    expect(await ctx.database.db.select().from(uploads)).toHaveLength(1);
  });

  it('needs a token', async () => {
    const form = multipartForm({}, [
      { field: 'image', filename: 'a.png', contentType: 'image/png', bytes: TINY_PNG },
    ]);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/upload-image?type=lab',
          payload: form.payload,
          headers: form.headers,
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('GET /api/upload-image/preview_image', () => {
  it('gives the owner, and those who may read a record holding the file, a fresh link; nobody else', async () => {
    const key = (await upload(patient, 'appointment', TINY_PNG)).json().files[0].key as string;
    const preview = (person: Person) =>
      as(ctx, person, {
        method: 'GET',
        url: `/api/upload-image/preview_image?key=${encodeURIComponent(key)}&type=appointment`,
      });
    const mine = await preview(patient);
    expect(mine.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: mine.json().url })).statusCode).toBe(200);

    const stranger = await makePerson(ctx, 'Patient');
    expect((await preview(stranger)).json()).toEqual({ message: UPLOAD_MESSAGES.notFound });
    const carer = await makePerson(ctx, 'Caregiver');
    await link(ctx, patient, carer, ['ReadAppointment']);
    expect((await preview(carer)).statusCode).toBe(404); // not attached to anything yet
    const created = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: {
        id: randomUUID(),
        patient_id: patient.patientId,
        appointment_title: 'Referral',
        appointment_date: '2027-01-01T10:00:00Z',
        attachment_key: key,
      },
    });
    expect(created.json().data.attachment_key).toBe(key);
    expect((await preview(carer)).statusCode).toBe(200);
    expect(
      (
        await as(ctx, patient, { method: 'GET', url: '/api/upload-image/preview_image?key=../../etc/passwd' })
      ).json().message,
    ).toBe(UPLOAD_MESSAGES.keyInvalid);
  });

  it("will not attach another person's file to an appointment", async () => {
    const other = await makePerson(ctx, 'Patient');
    const key = (await upload(other, 'appointment', TINY_PNG)).json().files[0].key as string;
    const response = await as(ctx, patient, {
      method: 'POST',
      url: '/api/appointments',
      payload: {
        id: randomUUID(),
        patient_id: patient.patientId,
        appointment_title: 'Sneaky',
        appointment_date: '2027-01-01T10:00:00Z',
        attachment_key: key,
      },
    });
    expect([response.statusCode, response.json().message]).toEqual([
      400,
      APPOINTMENT_MESSAGES.attachmentUnknown,
    ]);
  });
});

describe('housekeeping of attachments', () => {
  it('removes appointment files no live record refers to, and keeps the referenced ones', async () => {
    const kept = (await upload(patient, 'appointment', TINY_PNG)).json().files[0].key as string;
    const orphan = (await upload(patient, 'appointment', TINY_PNG)).json().files[0].key as string;
    const deletedWith = (await upload(patient, 'appointment', TINY_PNG)).json().files[0].key as string;
    const book = async (key: string) => {
      const id = randomUUID();
      await as(ctx, patient, {
        method: 'POST',
        url: '/api/appointments',
        payload: {
          id,
          patient_id: patient.patientId,
          appointment_title: 'Visit',
          appointment_date: '2027-01-01T10:00:00Z',
          attachment_key: key,
        },
      });
      return id;
    };
    await book(kept);
    const doomed = await book(deletedWith);
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${doomed}` });
    expect(
      await removeOrphanAttachments(ctx.database.db, ctx.app.storage, new Date(Date.now() - 60_000)),
    ).toBe(0); // too new to touch
    expect(
      await removeOrphanAttachments(ctx.database.db, ctx.app.storage, new Date(Date.now() + 60_000)),
    ).toBe(2);
    expect(await ctx.app.storage.read(kept)).not.toBeNull();
    expect(await ctx.app.storage.read(orphan)).toBeNull();
    expect(await ctx.app.storage.read(deletedWith)).toBeNull();
    expect((await ctx.database.db.select().from(uploads)).map((row) => row.key)).toEqual([kept]);
  });
});
