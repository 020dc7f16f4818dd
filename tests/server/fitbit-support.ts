import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { fitbitConnections } from '../../src/server/db/schema';
import type { FakeFitbit } from './fake-fitbit';
import { as, type Person } from './fixtures';
import type { TestContext } from './helpers';

// Calls of the Fitbit tests (tests/server/fitbit*.test.ts): connecting a patient as the app and Fitbit
// would, reading the days, and making the kept days old enough for Fitbit to be asked again.

export const authorize = (ctx: TestContext, person: Person) =>
  as(ctx, person, { method: 'GET', url: '/api/fitbit/authorize' });

export const callback = (ctx: TestContext, person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/fitbit/callback', payload: body });

export const readData = (ctx: TestContext, person: Person, patient?: string) =>
  as(ctx, person, {
    method: 'GET',
    url: `/api/fitbit/data${patient === undefined ? '' : `?patient=${encodeURIComponent(patient)}`}`,
  });

/** The patient allows Kincare in Fitbit: the code and state Fitbit sends back to the callback page. */
export async function approvedSignIn(ctx: TestContext, fake: FakeFitbit, patient: Person) {
  const started = await authorize(ctx, patient);
  expect(started.statusCode, started.body).toBe(200);
  return fake.approve(started.json<{ url: string }>().url);
}

/** Connects the patient's Fitbit through the routes, as the app does. */
export async function connect(ctx: TestContext, fake: FakeFitbit, patient: Person): Promise<void> {
  const { code, state } = await approvedSignIn(ctx, fake, patient);
  const answer = await callback(ctx, patient, { code, state, userId: patient.userId });
  expect(answer.statusCode, answer.body).toBe(200);
}

/** The kept days become older than 15 minutes: the next read asks Fitbit again. */
export async function makeStale(ctx: TestContext, patient: Person): Promise<void> {
  await ctx.database.db
    .update(fitbitConnections)
    .set({ checkedAt: new Date(Date.now() - 16 * 60 * 1000) })
    .where(eq(fitbitConnections.patientId, patient.patientId ?? ''));
}

export async function connectionRow(ctx: TestContext, patient: Person) {
  const rows = await ctx.database.db
    .select()
    .from(fitbitConnections)
    .where(eq(fitbitConnections.patientId, patient.patientId ?? ''));
  return rows;
}

export type Data = {
  connected: boolean;
  set_up: boolean;
  reconnect: boolean;
  days: {
    date: string;
    steps: number | null;
    resting_heart_rate: number | null;
    sleep_minutes: number | null;
  }[];
  fetched_at: string | null;
};
