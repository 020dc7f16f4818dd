import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { LABEL_LINES } from '../fixtures/labels';
import { multipartForm, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// The readers are shared fairly: one account's flood of documents gets one read at a time and a small
// lane, and another patient's document is read next, not after the flood. (An attack run saw other
// patients answered 503, or kept waiting over two minutes, behind one person's jobs.)

let ctx: TestContext;
let mallory: Person;
let alice: Person;

beforeAll(async () => {
  ctx = await startTestApp({
    OCR_WORKERS: '1',
    OCR_QUEUE_PER_ACCOUNT: '2',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '100',
  });
  mallory = await makePerson(ctx, 'Patient', 'Mallory Flood');
  alice = await makePerson(ctx, 'Patient', 'Alice Other');
}, 60_000);
afterAll(async () => ctx.close());

/** Half a letter page of label text at 150 dpi: about a second of OCR, so a queue builds up behind it. */
function labelPage(): Buffer {
  const canvas = createCanvas(1275, 825);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1275, 825);
  context.fillStyle = '#000000';
  context.font = '28px "Label Sans"';
  for (let line = 0; line < 16; line++)
    context.fillText(LABEL_LINES[line % LABEL_LINES.length] ?? '', 60, 80 + line * 38);
  return canvas.toBuffer('image/png');
}

async function uploadLabel(person: Person, bytes: Buffer): Promise<string> {
  const form = multipartForm({}, [
    { field: 'image', filename: 'label.png', contentType: 'image/png', bytes },
  ]);
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/upload-image?type=prescription',
    payload: form.payload,
    headers: form.headers,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ files: { key: string }[] }>().files[0]?.key ?? '';
}

const readLabel = (person: Person, key: string) =>
  as(ctx, person, { method: 'POST', url: '/api/prescriptions/ocr', payload: { s3Key: key } });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the OCR queue is fair between accounts', () => {
  it("gives a flooding account one read and a lane of two; another patient's label is read next", async () => {
    const page = labelPage();
    const malloryKey = await uploadLabel(mallory, page);
    const aliceKey = await uploadLabel(alice, page);
    // Warm the reader, so the order below is the queue's and not a process start's.
    expect((await readLabel(alice, aliceKey)).statusCode).toBe(200);

    const finished: string[] = [];
    const track = (who: string, answer: Promise<LightMyRequestResponse>) =>
      answer.then((response) => {
        finished.push(`${who} ${response.statusCode}`);
        return response;
      });
    const flood = [1, 2, 3, 4].map((n) => track(`mallory${n}`, readLabel(mallory, malloryKey)));
    const refused = (response: LightMyRequestResponse) =>
      response.statusCode === 503 ? response : Promise.reject(new Error('read, not refused'));
    const refusedEarly = await Promise.any(flood.map((answer) => answer.then(refused)));
    // Mallory's fourth is refused at once, for her alone, with when to come back.
    expect(refusedEarly.headers['retry-after']).toMatch(/^\d+$/);
    expect(refusedEarly.json().message).toMatch(
      /^Your earlier files are still being read\. Please try again in about \d+ seconds\.$/,
    );
    await until(() => ctx.app.ocr.queueLoad().waiting === 2);

    const aliceAnswer = await track('alice', readLabel(alice, aliceKey));
    expect(aliceAnswer.statusCode, aliceAnswer.body).toBe(200);
    const answers = await Promise.all(flood);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 503]);
    // Alice waited for the one read of Mallory's that was running, not for her whole lane.
    const order = finished.filter((entry) => entry.endsWith('200'));
    expect(order.indexOf('alice 200')).toBeLessThanOrEqual(1);
  }, 180_000);
});
