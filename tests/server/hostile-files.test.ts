import { imageSize } from 'image-size';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '../../src/domain/uploads';
import { uploads } from '../../src/server/db/schema';
import { heifGrid, LABEL_TILE, labelHeic } from '../fixtures/heif';
import { hugePagePdf, inflatingPdf, javaScriptPdf, manyPagesPdf } from '../fixtures/pdfs';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// Files built to hurt the server, sent as an attacker sends them, on the real app: a HEIF grid that
// describes 9,600 x 12,000 pixels in 33 kB, and PDFs whose streams inflate to gigabytes. Each is refused
// from what the file says about itself before anything is decoded; what gets past that (a cap raised by
// its setting) fails inside its sandbox process, alone, and the server's own memory does not move.

const MB = 1024 * 1024;

let ctx: TestContext;
let patient: Person;

beforeAll(async () => {
  ctx = await startTestApp();
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

function upload(on: TestContext, person: Person, bytes: Buffer, type = 'lab', contentType = 'image/heic') {
  const form = multipartForm({}, [{ field: 'image', filename: 'photo.heic', contentType, bytes }]);
  return as(on, person, {
    method: 'POST',
    url: `/api/upload-image?type=${type}`,
    payload: form.payload,
    headers: form.headers,
  });
}

/** The server process's resident memory at its highest while `work` runs (sampled every 20 ms). */
async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await work();
    return { result, growthMb: (peak - before) / MB };
  } finally {
    clearInterval(sampler);
  }
}

describe('HEIF photos are measured from their own boxes before anything is decoded', () => {
  it('refuses a 33 kB grid of 160 tiles that describes 9,600 x 12,000 pixels, whatever its crop box says', async () => {
    const bomb = heifGrid({ columns: 8, rows: 20, unusedClap: true });
    expect(bomb.length).toBeLessThan(40_000);
    // Why the boxes are read here: a generic header reader subtracts the unused crop box from the width.
    expect(imageSize(bomb).width).toBeLessThan(0);
    const response = await upload(ctx, patient, bomb);
    expect([response.statusCode, response.json().message]).toEqual([
      413,
      UPLOAD_MESSAGES.imageTooManyPixels(ctx.config.uploads.maxPixels),
    ]);
    // Refused before decoding: no converter process was ever started, and nothing was stored.
    expect(ctx.app.heic.processIds()).toEqual([]);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
  });

  it('refuses a grid whose tiles each claim too much, or whose tiles together are far more than it shows', async () => {
    const hugeTiles = heifGrid({
      columns: 2,
      rows: 2,
      outputWidth: 2400,
      outputHeight: 1200,
      tileWidth: 8000,
      tileHeight: 8000,
    });
    expect((await upload(ctx, patient, hugeTiles)).statusCode).toBe(413);
    // 16 x 16 tiles of 1200 x 600 (184 MP of tiles) behind an output of only 2400 x 1200.
    const hiddenTiles = heifGrid({ columns: 16, rows: 16, outputWidth: 2400, outputHeight: 1200 });
    expect((await upload(ctx, patient, hiddenTiles)).statusCode).toBe(413);
    expect(ctx.app.heic.processIds()).toEqual([]);
  });

  it('refuses malformed boxes: a tile without its size, fewer tiles than cells, a file cut short', async () => {
    const grid = heifGrid({ columns: 2, rows: 2 });
    const malformed = [
      heifGrid({ columns: 2, rows: 2, tilesWithoutSize: true }),
      heifGrid({ columns: 2, rows: 2, missingTiles: 1 }),
      grid.subarray(0, 400),
    ];
    for (const bytes of malformed) {
      const response = await upload(ctx, patient, bytes);
      expect([response.statusCode, response.json().message]).toEqual([400, UPLOAD_MESSAGES.imageUnreadable]);
    }
    expect(ctx.app.heic.processIds()).toEqual([]);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
  });

  it('keeps a real grid photo, and a plain one, as JPEGs', async () => {
    const grid = await upload(ctx, patient, heifGrid({ columns: 2, rows: 2 }));
    expect(grid.statusCode, grid.body).toBe(201);
    const key: string = grid.json().files[0].key;
    expect(key).toMatch(/\.jpg$/);
    const stored = await ctx.app.storage.read(key);
    expect(imageSize(stored?.bytes ?? Buffer.alloc(0))).toMatchObject({
      width: LABEL_TILE.width * 2,
      height: LABEL_TILE.height * 2,
    });
    expect((await upload(ctx, patient, labelHeic())).statusCode).toBe(201);
  }, 120_000);
});

describe('every decode runs under a memory ceiling', () => {
  let generous: TestContext;
  beforeAll(async () => {
    // A pixel cap raised far (as a setting allows) lets the bomb through to the converter: what stops it
    // now is its sandbox process's memory ceiling.
    generous = await startTestApp(
      { UPLOAD_MAX_PIXELS: '200000000', DECODE_MEMORY_MB: '512' },
      { sharesDatabaseWith: ctx },
    );
  }, 60_000);
  afterAll(async () => generous.close());
  // The patient's session row is written by the first server as its token is handed out, and that server
  // waits for the write before answering: one call there first, so this second server finds the session.
  beforeEach(async () => {
    const ready = await as(ctx, patient, {
      method: 'GET',
      url: `/api/appointments?patient=${patient.patientId}`,
    });
    expect(ready.statusCode, ready.body).toBe(200);
  });

  it('a grid bomb past the pixel cap fails alone in its sandbox (422), the server unmoved, and the next photo converts', async () => {
    const bomb = heifGrid({ columns: 8, rows: 20, unusedClap: true });
    const { result: response, growthMb } = await peakRssDuring(() => upload(generous, patient, bomb));
    expect([response.statusCode, response.json().message]).toEqual([422, UPLOAD_MESSAGES.imageTooDemanding]);
    // Decoded in this process it took gigabytes; the margin is for the test's own allocations.
    expect(growthMb).toBeLessThan(150);
    expect(await ctx.database.db.select().from(uploads)).toEqual([]);
    const next = await upload(generous, patient, labelHeic());
    expect(next.statusCode, next.body).toBe(201);
  }, 180_000);
});

describe('PDFs are read under caps on what they inflate to', () => {
  async function readReport(bytes: Buffer) {
    const stored = await upload(ctx, patient, bytes, 'lab', 'application/pdf');
    expect(stored.statusCode, stored.body).toBe(201);
    const key: string = stored.json().files[0].key;
    return as(ctx, patient, { method: 'POST', url: '/api/lab-reports/ocr', payload: { s3Key: key } });
  }

  it('refuses a 4 MB PDF whose content stream inflates to 2 GB with a clear 422, the server unmoved', async () => {
    const bomb = inflatingPdf(2048 * MB);
    expect(bomb.length).toBeLessThan(5 * MB);
    const { result: response, growthMb } = await peakRssDuring(() => readReport(bomb));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().message).toMatch(/unpack to too much/);
    expect(growthMb).toBeLessThan(150);
  }, 120_000);

  it('refuses a content stream just over its cap, and reads one just under it', async () => {
    const over = await readReport(inflatingPdf(16 * MB));
    expect(over.statusCode, over.body).toBe(422);
    // Under the caps it is read (a drawing with no text: not a lab report, which is an answer, not an error).
    const under = await readReport(inflatingPdf(MB / 4));
    expect(under.statusCode, under.body).toBe(200);
  }, 180_000);

  it('reads a PDF that asks to run JavaScript as text only, and refuses one of too many pages whole', async () => {
    const script = await readReport(javaScriptPdf());
    expect(script.statusCode, script.body).toBe(200);
    const pages = await readReport(manyPagesPdf(40));
    expect([pages.statusCode, pages.json().message]).toEqual([
      422,
      `The PDF has 40 pages; at most ${ctx.config.ocr.maxPages} can be read at once.`,
    ]);
    const huge = await readReport(hugePagePdf());
    expect(huge.statusCode, huge.body).toBe(200);
  }, 120_000);
});
