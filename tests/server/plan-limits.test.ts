import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BILLING_CODES, planLimitMessage } from '../../src/domain/billing';
import { careRequests, planUsage, plans, subscriptions } from '../../src/server/db/schema';
import { OcrError } from '../../src/server/ocr/ocr-service';
import { HttpError } from '../../src/server/plugins/errors';
import { takeLabExtraction } from '../../src/server/services/billing/plan-limits';
import { loadDocument } from '../fixtures/lab-reports/corpus';
import { renderTextPdf } from '../fixtures/lab-reports/render';
import { givePlan } from '../fixtures/plans';
import { as, link, makePerson, type Person } from './fixtures';
import { multipartForm, resetDatabase, startTestApp, type TestContext } from './helpers';

// What a plan allows, enforced by the server (on the default, test-mode app): caregivers (linked and
// invited-and-waiting together) and lab reports read automatically per calendar month (UTC), counted
// against the patient's plan whoever reads, given back when the reading service failed, and never
// passed by two readings at once. A patient without a usable subscription is held to the Free plan.

let ctx: TestContext;
let patient: Person;
/** Lab reports the Free plan reads a month (5 as seeded by migration 0007; plans are data). */
let freeReads: number;

beforeAll(async () => {
  ctx = await startTestApp();
  const [free] = await ctx.database.db.select().from(plans).where(eq(plans.id, 'free'));
  freeReads = free?.limits.labExtractionsPerMonth ?? 0;
  expect(freeReads).toBeGreaterThan(0);
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient'); // no subscription: the Free plan's limits
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function expectPlanLimit(
  answer: { statusCode: number; json: () => { code?: string; message?: string } },
  message: string,
) {
  expect(answer.statusCode).toBe(403);
  expect(answer.json()).toMatchObject({ code: BILLING_CODES.planLimit, message });
}

describe('caregivers', () => {
  const send = (email: string) =>
    as(ctx, patient, {
      method: 'POST',
      url: '/api/request/send-request',
      payload: {
        caregiver_email: email,
        is_family: true,
        relationship: 'Daughter',
        permissions: ['ReadAppointment'],
        phone_number: '+1 555 123 4567',
      },
    });

  it('a Free patient has 2, linked and waiting together; the 3rd waits for a plan that allows more', async () => {
    await link(ctx, patient, await makePerson(ctx, 'Caregiver', 'Linked Carer'), ['ReadAppointment']);
    const waiting = await makePerson(ctx, 'Caregiver', 'Invited Carer');
    expect((await send(waiting.email)).statusCode).toBe(200);

    const third = await send('third.carer@example.com');
    expectPlanLimit(third, planLimitMessage('caregivers', 'Free', 2));
    const rows = await ctx.database.db.select().from(careRequests);
    expect(rows.map((row) => row.caregiverEmail)).toEqual([waiting.email]);

    await givePlan(ctx.database.db, patient.userId, 'plus-monthly');
    expect((await send('third.carer@example.com')).statusCode).toBe(200);
    expect((await send('fourth.carer@example.com')).statusCode).toBe(200);

    // Canceled with paid time left, the plan still holds (as the sign-in does) ...
    await ctx.database.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.userId, patient.userId));
    expect((await send('fifth.carer@example.com')).statusCode).toBe(200);
    // ... and once that time has ended, the patient is held to the Free plan again.
    await ctx.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 60_000) })
      .where(eq(subscriptions.userId, patient.userId));
    expectPlanLimit(await send('sixth.carer@example.com'), planLimitMessage('caregivers', 'Free', 2));
  });
});

describe('lab reports read automatically', () => {
  const report = loadDocument('classic-1');
  const limitMessage = (plan: string, allowed: number) =>
    planLimitMessage('labExtractionsPerMonth', plan, allowed);

  async function upload(person: Person): Promise<string> {
    const bytes = await renderTextPdf(report);
    const form = multipartForm({}, [
      { field: 'image', filename: 'report', contentType: 'application/pdf', bytes },
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
  const read = (person: Person, body: Record<string, unknown>) =>
    as(ctx, person, { method: 'POST', url: '/api/lab-reports/ocr', payload: body });
  const usedThisMonth = async (userId: string) => {
    const [row] = await ctx.database.db
      .select({ used: planUsage.used })
      .from(planUsage)
      .where(and(eq(planUsage.userId, userId), eq(planUsage.period, new Date().toISOString().slice(0, 7))));
    return row?.used ?? 0;
  };

  /** Takes readings straight from the allowance, as the route does before reading. */
  const take = (count: number, at = new Date()) =>
    Array.from({ length: count }).reduce<Promise<void>>(
      (done) => done.then(() => takeLabExtraction(ctx.database.db, patient.patientId ?? '', at)),
      Promise.resolve(),
    );

  it('the allowance of a month, then 403 PLAN_LIMIT; a reading the service could not do is given back', async () => {
    const key = await upload(patient);
    for (let index = 1; index < freeReads; index += 1)
      expect((await read(patient, { s3Key: key })).statusCode, `reading ${index}`).toBe(200);

    vi.spyOn(ctx.app.ocr, 'recognize').mockRejectedValueOnce(new OcrError('busy', 'Try again in a minute.'));
    expect((await read(patient, { s3Key: key })).statusCode).toBe(503);
    expect(await usedThisMonth(patient.userId)).toBe(freeReads - 1);

    expect((await read(patient, { s3Key: key })).statusCode).toBe(200);
    expectPlanLimit(await read(patient, { s3Key: key }), limitMessage('Free', freeReads));
    expect(await usedThisMonth(patient.userId)).toBe(freeReads);

    await givePlan(ctx.database.db, patient.userId, 'plus-monthly');
    expect((await read(patient, { s3Key: key })).statusCode).toBe(200);
  }, 60_000);

  // The route gives a failed reading back to the month it was taken from.
  it('a reading that fails after midnight at the month’s end is given back to its own month', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T23:59:59.500Z'));
    const late = await makePerson(ctx, 'Patient', 'Late Reader');
    const key = await upload(late);
    vi.spyOn(ctx.app.ocr, 'recognize').mockImplementationOnce(async () => {
      vi.setSystemTime(new Date('2027-01-01T00:00:02Z')); // the reading took three seconds, and failed
      throw new OcrError('busy', 'Try again in a minute.');
    });
    expect((await read(late, { s3Key: key })).statusCode).toBe(503);
    const rows = await ctx.database.db
      .select({ period: planUsage.period, used: planUsage.used })
      .from(planUsage)
      .where(eq(planUsage.userId, late.userId));
    expect(rows).toEqual([{ period: '2026-12', used: 0 }]);
  }, 60_000);

  it('a caregiver’s reading counts against the patient’s plan', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver', 'Carer');
    await link(ctx, patient, caregiver, ['ReadLabReport', 'AddLabReport']);
    const key = await upload(patient);
    await take(freeReads - 1);
    const forPatient = { s3Key: key, patient: patient.patientId };
    expect((await read(caregiver, forPatient)).statusCode).toBe(200);
    expect(await usedThisMonth(patient.userId)).toBe(freeReads);
    expect(await usedThisMonth(caregiver.userId)).toBe(0);
    expectPlanLimit(await read(caregiver, forPatient), limitMessage('Free', freeReads));

    await givePlan(ctx.database.db, patient.userId, 'plus-monthly');
    expect((await read(caregiver, forPatient)).statusCode).toBe(200);
  }, 60_000);

  it('counts each calendar month (UTC) afresh, and two readings at once never pass the limit', async () => {
    const lastMomentOfMarch = new Date('2026-03-31T23:59:59.999Z');
    await take(freeReads, lastMomentOfMarch);
    const march = await take(1, lastMomentOfMarch).then(
      () => null,
      (error: unknown) => error,
    );
    expect(march).toBeInstanceOf(HttpError);
    expect(march).toMatchObject({
      statusCode: 403,
      code: BILLING_CODES.planLimit,
      message: limitMessage('Free', freeReads),
    });

    const april = new Date('2026-04-01T00:00:00Z');
    await take(freeReads - 1, april); // a new month, with one reading left
    const racing = await Promise.allSettled([take(1, april), take(1, april)]);
    expect(racing.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = racing.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ statusCode: 403, code: BILLING_CODES.planLimit });

    const rows = await ctx.database.db
      .select({ period: planUsage.period, used: planUsage.used })
      .from(planUsage)
      .where(eq(planUsage.userId, patient.userId))
      .orderBy(sql`${planUsage.period}`);
    expect(rows).toEqual([
      { period: '2026-03', used: freeReads },
      { period: '2026-04', used: freeReads },
    ]);
  });
});
