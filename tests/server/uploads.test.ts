import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES } from '../../src/domain/appointments';
import { UPLOAD_MESSAGES } from '../../src/domain/uploads';
import { records, uploads, users } from '../../src/server/db/schema';
import { FORM_UNREADABLE_MESSAGE } from '../../src/server/plugins/errors';
import { FILE_KINDS } from '../../src/server/plugins/storage';
import { removeOrphanAttachments, removeOrphanFiles } from '../../src/server/services/orphan-files';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { jpegClaiming, pngClaiming, TINY_PNG } from '../fixtures/images';
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

function upload(
  person: Person,
  type: string,
  bytes: Buffer,
  options: { field?: string; key?: string; on?: TestContext } = {},
) {
  const form = multipartForm({}, [
    { field: options.field ?? 'image', filename: 'letter.png', contentType: 'image/png', bytes },
  ]);
  return as(options.on ?? ctx, person, {
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
    expect(file.key).toMatch(/^appointment\/[0-9a-f]{32}\/[0-9a-f]{32}\.png$/);
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

describe('the patient’s folder', () => {
  const folderOf = (response: { json: () => unknown }) =>
    (response.json() as { files: { key: string }[] }).files[0]?.key.split('/')[1];
  const hex = (id: string | null) => (id ?? '').replaceAll('-', '');
  const uploadFor = (person: Person, type: string, patientId?: string) => {
    const form = multipartForm({}, [
      { field: 'image', filename: 'r.pdf', contentType: 'application/pdf', bytes: PDF },
    ]);
    const query = patientId ? `&patient=${patientId}` : '';
    return as(ctx, person, {
      method: 'POST',
      url: `/api/upload-image?type=${type}${query}`,
      payload: form.payload,
      headers: form.headers,
    });
  };

  it('files a document in the folder of the patient it is for, and only where the uploader may file', async () => {
    // The patient's own documents: their folder, named or not.
    expect(folderOf(await uploadFor(patient, 'lab'))).toBe(hex(patient.patientId));
    expect(folderOf(await uploadFor(patient, 'lab', patient.patientId ?? ''))).toBe(hex(patient.patientId));
    // A caregiver who may add lab reports files one in the patient's folder.
    const adder = await makePerson(ctx, 'Caregiver', 'Adder');
    await link(ctx, patient, adder, ['ReadLabReport', 'AddLabReport']);
    const filed = await uploadFor(adder, 'lab', patient.patientId ?? '');
    expect(filed.statusCode, filed.body).toBe(201);
    expect(folderOf(filed)).toBe(hex(patient.patientId));
    // ...but not a prescription photo, which needs Add- or EditPrescription; nor for anyone else.
    expect((await uploadFor(adder, 'prescription', patient.patientId ?? '')).statusCode).toBe(403);
    const stranger = await makePerson(ctx, 'Patient', 'Stranger');
    expect((await uploadFor(adder, 'lab', stranger.patientId ?? '')).statusCode).toBe(403);
    expect((await uploadFor(patient, 'lab', stranger.patientId ?? '')).statusCode).toBe(403);
    // A caregiver who names nobody files in their own folder; a profile photo is always its person's.
    expect(folderOf(await uploadFor(adder, 'appointment'))).toBe(hex(adder.userId));
    const profile = await uploadFor(patient, 'profile', patient.patientId ?? '');
    expect(profile.statusCode).toBe(400);
    expect(profile.json().message).toBe(UPLOAD_MESSAGES.profileForPatient);
    expect((await uploadFor(patient, 'lab', 'someone')).statusCode).toBe(400);
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

/** A PDF of exactly `size` bytes. */
function pdfOf(size: number): Buffer {
  return Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]);
}

describe('image size limit (UPLOAD_MAX_PIXELS)', () => {
  it('refuses an image whose header claims more pixels than allowed, and one whose size cannot be read', async () => {
    const limit = ctx.config.uploads.maxPixels;
    for (const bytes of [pngClaiming(100_000, 100_000), jpegClaiming(60_000, 60_000)]) {
      const response = await upload(patient, 'appointment', bytes);
      expect([response.statusCode, response.json().message]).toEqual([
        413,
        UPLOAD_MESSAGES.imageTooManyPixels(limit),
      ]);
    }
    const broken = await upload(
      patient,
      'lab',
      Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.from('not a header')]),
    );
    expect([broken.statusCode, broken.json().message]).toEqual([400, UPLOAD_MESSAGES.imageUnreadable]);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
    // At the limit is fine; a PDF has no pixels to count.
    expect((await upload(patient, 'lab', pngClaiming(5000, 10_000))).statusCode).toBe(201);
    expect((await upload(patient, 'lab', PDF)).statusCode).toBe(201);
  });
});

describe('broken forms', () => {
  // The form parser throws plain errors on these; they are the sender's mistake: 400, never 500.
  const broken: [string, string, string][] = [
    ['no boundary', 'multipart/form-data', 'anything'],
    ['a boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'anything'],
    [
      'a body cut off before its closing boundary',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="note"\r\n\r\n123',
    ],
    ['a JSON body labelled multipart', 'multipart/form-data; boundary=x', '{"image":"x"}'],
  ];
  it.each(broken)(
    'answers %s with 400 and a message, on both routes that read forms',
    async (_, type, body) => {
      for (const [method, url] of [
        ['POST', '/api/upload-image?type=lab'],
        ['PUT', '/api/auth/update-profile'],
      ] as const) {
        const response = await as(ctx, patient, {
          method,
          url,
          payload: body,
          headers: { 'content-type': type },
        });
        expect([url, response.statusCode, response.json().message]).toEqual([
          url,
          400,
          FORM_UNREADABLE_MESSAGE,
        ]);
      }
      expect(await ctx.database.db.select().from(uploads)).toEqual([]);
    },
  );

  it('refuses a profile photo whose header claims too many pixels, like any upload', async () => {
    const form = multipartForm({ name: 'Changed' }, [
      { field: 'photo', filename: 'me.png', contentType: 'image/png', bytes: pngClaiming(100_000, 100_000) },
    ]);
    const response = await as(ctx, patient, {
      method: 'PUT',
      url: '/api/auth/update-profile',
      payload: form.payload,
      headers: form.headers,
    });
    expect([response.statusCode, response.json().message]).toEqual([
      413,
      UPLOAD_MESSAGES.imageTooManyPixels(ctx.config.uploads.maxPixels),
    ]);
  });
});

describe('per-person upload limits', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await startTestApp({
      UPLOAD_DAILY_FILES: '3',
      UPLOAD_DAILY_BYTES: '4096',
      UPLOAD_TOTAL_BYTES: '6144',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => small.close());
  beforeEach(async () => resetDatabase(small));

  const rowsOf = (person: Person) =>
    small.database.db.select().from(uploads).where(eq(uploads.ownerUserId, person.userId));
  /** Moves every upload of this person back by `hours`, as if made then. */
  const age = (person: Person, hours: number) =>
    small.database.db
      .update(uploads)
      .set({ createdAt: sql`${uploads.createdAt} - make_interval(hours => ${hours})` })
      .where(eq(uploads.ownerUserId, person.userId));

  it('records each file size and refuses the day’s extra file with 429, until a day has passed', async () => {
    const person = await makePerson(small, 'Patient');
    const first = await upload(person, 'lab', pdfOf(100), { on: small, key: 'quota-key-0001' });
    expect(first.statusCode).toBe(201);
    expect((await upload(person, 'lab', pdfOf(200), { on: small })).statusCode).toBe(201);
    expect((await upload(person, 'lab', pdfOf(300), { on: small })).statusCode).toBe(201);
    expect((await rowsOf(person)).map((row) => row.sizeBytes).sort()).toEqual([100, 200, 300]);

    const fourth = await upload(person, 'lab', pdfOf(100), { on: small });
    expect([fourth.statusCode, fourth.json().message]).toEqual([429, UPLOAD_MESSAGES.dailyFiles(3)]);
    expect(await rowsOf(person)).toHaveLength(3);
    expect(filesUnder(join(small.dataDir, 'files', 'lab'))).toHaveLength(3); // nothing stored
    // A replay stores nothing, so a full day does not hide its answer.
    const replay = await upload(person, 'lab', pdfOf(100), { on: small, key: 'quota-key-0001' });
    expect([replay.statusCode, replay.json().files[0].key]).toEqual([201, first.json().files[0].key]);
    // Someone else is not affected.
    expect((await upload(await makePerson(small, 'Patient'), 'lab', PDF, { on: small })).statusCode).toBe(
      201,
    );

    await age(person, 25);
    expect((await upload(person, 'lab', pdfOf(100), { on: small })).statusCode).toBe(201);
  });

  it('refuses a file that passes the day’s bytes (429) or the stored total (413)', async () => {
    const person = await makePerson(small, 'Patient');
    expect((await upload(person, 'lab', pdfOf(3000), { on: small })).statusCode).toBe(201);
    const overDay = await upload(person, 'lab', pdfOf(2000), { on: small });
    expect([overDay.statusCode, overDay.json().message]).toEqual([429, UPLOAD_MESSAGES.dailyBytes(4096)]);
    expect(overDay.json().message).toContain('4 KB');

    await age(person, 25);
    expect((await upload(person, 'lab', pdfOf(2000), { on: small })).statusCode).toBe(201); // 5000 stored
    const overTotal = await upload(person, 'lab', pdfOf(2000), { on: small });
    expect([overTotal.statusCode, overTotal.json().message]).toEqual([
      413,
      UPLOAD_MESSAGES.storageFull(6144),
    ]);
    expect((await rowsOf(person)).reduce((sum, row) => sum + row.sizeBytes, 0)).toBe(5000);
  });
});

describe('upload rate limit', () => {
  it('limits each person’s uploads per minute, apart from everyone else’s', async () => {
    const limited = await startTestApp({ RATE_LIMIT_UPLOADS_PER_MINUTE: '2' });
    try {
      const person = await makePerson(limited, 'Patient');
      const other = await makePerson(limited, 'Patient');
      expect((await upload(person, 'lab', PDF, { on: limited })).statusCode).toBe(201);
      expect((await upload(person, 'lab', PDF, { on: limited })).statusCode).toBe(201);
      const third = await upload(person, 'lab', PDF, { on: limited });
      expect([third.statusCode, third.json().message]).toEqual([429, UPLOAD_MESSAGES.tooManyUploads]);
      expect((await upload(other, 'lab', PDF, { on: limited })).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

/** The files in a folder and its owners' folders below it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Deletes every stored file, so a sweep's count is about this test's files alone. */
function emptyFileStore(context: TestContext) {
  for (const kind of FILE_KINDS) {
    const dir = join(context.dataDir, 'files', kind);
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

const LATER = () => new Date(Date.now() + 60_000);

describe('housekeeping of attachments', () => {
  beforeEach(() => emptyFileStore(ctx));

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

describe('housekeeping of every kind of file', () => {
  beforeEach(() => emptyFileStore(ctx));

  /** A record of a resource the server does not know yet, holding `data` (lab reports and prescriptions will). */
  async function insertRecord(data: Record<string, unknown>, deleted = false) {
    const [{ version } = { version: 0 }] = await ctx.database.db
      .select({ version: sql<number>`coalesce(max(${records.version}), 0) + 1` })
      .from(records);
    await ctx.database.db.insert(records).values({
      id: randomUUID(),
      resource: 'lab_report',
      patientId: patient.patientId ?? '',
      version: Number(version),
      data,
      fieldChangedAt: {},
      createdBy: patient.userId,
      deletedAt: deleted ? new Date() : null,
    });
  }
  const keyOf = async (type: string, bytes: Buffer = TINY_PNG) =>
    (await upload(patient, type, bytes)).json().files[0].key as string;
  const exists = async (key: string) => (await ctx.app.storage.read(key)) !== null;

  it('keeps lab and prescription files any live record holds (at any depth), and removes the rest', async () => {
    const labKept = await keyOf('lab', PDF);
    const prescriptionKept = await keyOf('prescription');
    const labOfDeleted = await keyOf('lab', PDF);
    const labUnused = await keyOf('lab', PDF);
    const prescriptionUnused = await keyOf('prescription');
    await insertRecord({ title: 'Blood panel', report_files: [{ key: labKept, pages: 2 }] });
    await insertRecord({ prescription_image: prescriptionKept });
    await insertRecord({ report_files: [{ key: labOfDeleted }] }, true);

    expect(await removeOrphanFiles(ctx.database.db, ctx.app.storage, new Date(Date.now() - 60_000))).toBe(0);
    expect(await removeOrphanFiles(ctx.database.db, ctx.app.storage, LATER())).toBe(3);
    expect(await exists(labKept)).toBe(true);
    expect(await exists(prescriptionKept)).toBe(true);
    for (const key of [labOfDeleted, labUnused, prescriptionUnused]) expect(await exists(key)).toBe(false);
    expect((await ctx.database.db.select().from(uploads)).map((row) => row.key).sort()).toEqual(
      [labKept, prescriptionKept].sort(),
    );
  });

  it("keeps profile photos while they are someone's photo, uploaded either way, and removes replaced ones", async () => {
    const uploadedPhoto = await keyOf('profile');
    const unusedPhoto = await keyOf('profile');
    await ctx.database.db.update(users).set({ photoKey: uploadedPhoto }).where(eq(users.id, patient.userId));
    // A photo saved by update-profile has no uploads row: only users.photo_key holds it.
    const other = await makePerson(ctx, 'Patient');
    const savedPhoto = (
      await ctx.app.storage.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b')
    ).key;
    await ctx.database.db.update(users).set({ photoKey: savedPhoto }).where(eq(users.id, other.userId));
    const replacedPhoto = (
      await ctx.app.storage.put('profile', TINY_PNG, 'image/png', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b')
    ).key;

    expect(await removeOrphanFiles(ctx.database.db, ctx.app.storage, LATER())).toBe(2);
    expect(await exists(uploadedPhoto)).toBe(true);
    expect(await exists(savedPhoto)).toBe(true);
    expect(await exists(unusedPhoto)).toBe(false);
    expect(await exists(replacedPhoto)).toBe(false);
  });

  it('removes files a crash left on disk with no uploads row, of every kind, once they are a day old', async () => {
    const leftovers = await Promise.all(
      FILE_KINDS.map(
        async (kind) =>
          (await ctx.app.storage.put(kind, PDF, 'application/pdf', '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b'))
            .key,
      ),
    );
    const now = Date.now();
    expect((await runHousekeeping(ctx.app, now)).orphans).toBe(0); // written just now
    expect((await runHousekeeping(ctx.app, now + 25 * 60 * 60 * 1000)).orphans).toBe(FILE_KINDS.length);
    for (const key of leftovers) expect(await exists(key)).toBe(false);
  });
});
