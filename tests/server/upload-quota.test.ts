import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '../../src/domain/uploads';
import { uploads } from '../../src/server/db/schema';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// The upload quota holds when a person sends many files at once: the count and the write are one step,
// under a lock of the person's own, so uploads sent together are counted one after another. An attack
// that sent its files together stored 285 MiB against a 200 MiB daily limit.

const DAILY_BYTES = 40_000;
const FILE_BYTES = 9_000;

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp({
    UPLOAD_DAILY_BYTES: String(DAILY_BYTES),
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
  });
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

/** A distinct PDF of FILE_BYTES bytes (each upload is a file of its own, not a replay). */
function pdfOfSize(): Buffer {
  const head = Buffer.from(`%PDF-1.4\n% ${randomUUID()}\n`);
  return Buffer.concat([head, Buffer.alloc(FILE_BYTES - head.length, 0x20)]);
}

function upload(person: Person, bytes: Buffer, key?: string) {
  const form = multipartForm({}, [
    { field: 'image', filename: 'report.pdf', contentType: 'application/pdf', bytes },
  ]);
  return as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=lab',
    payload: form.payload,
    headers: { ...form.headers, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

async function storedBytes(person: Person): Promise<number> {
  const rows = await ctx.database.db.select().from(uploads).where(eq(uploads.ownerUserId, person.userId));
  return rows.reduce((sum, row) => sum + row.sizeBytes, 0);
}

describe('the upload quota, counted and written in one step', () => {
  it('stores no more than the daily limit when twelve files are sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => upload(patient, pdfOfSize())));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    const fit = Math.floor(DAILY_BYTES / FILE_BYTES);
    expect(statuses.filter((status) => status === 201)).toHaveLength(fit);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect([refused.statusCode, refused.json().message]).toEqual([
        429,
        UPLOAD_MESSAGES.dailyBytes(DAILY_BYTES),
      ]);
    }
    expect(await storedBytes(patient)).toBeLessThanOrEqual(DAILY_BYTES);
  });

  it("counts each person apart: one person's full day does not refuse another's", async () => {
    const other = await makePerson(ctx, 'Patient', 'Other Patient');
    await Promise.all(Array.from({ length: 6 }, () => upload(patient, pdfOfSize())));
    expect((await upload(other, pdfOfSize())).statusCode).toBe(201);
  });

  it('does not keep a quota refusal as the final answer of its Idempotency-Key', async () => {
    // Sent at once, most refusals come from the count in the storing transaction (the early check saw
    // room): neither kind may be stored as the key's answer.
    const sent = Array.from({ length: 12 }, () => ({ key: randomUUID(), file: pdfOfSize() }));
    const answers = await Promise.all(sent.map(({ key, file }) => upload(patient, file, key)));
    const refused = sent.filter((_, index) => answers[index]?.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    // The day's uploads are gone (deleted, or a day has passed): the same changes sent again are let in.
    await ctx.database.db.delete(uploads).where(eq(uploads.ownerUserId, patient.userId));
    for (const { key, file } of refused.slice(0, Math.floor(DAILY_BYTES / FILE_BYTES))) {
      const retried = await upload(patient, file, key);
      expect(retried.statusCode, retried.body).toBe(201);
    }
  });
});
