import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { purgeTombstones } from '../../src/server/services/records';
import { eq } from 'drizzle-orm';
import { careLinks, records } from '../../src/server/db/schema';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => resetDatabase(ctx));

async function book(person: Person, patientId: string | null, title = 'Visit') {
  const id = randomUUID();
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/appointments',
    payload: {
      id,
      patient_id: patientId,
      appointment_title: title,
      appointment_date: '2026-12-01T10:00:00Z',
    },
  });
  expect(response.statusCode).toBe(201);
  return id;
}

const pull = (person: Person, query: string) =>
  as(ctx, person, { method: 'GET', url: `/api/sync/pull?${query}` });

describe('GET /api/sync/pull', () => {
  it('pages through every change since the cursor, edits and tombstones included', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await book(patient, patient.patientId, `Visit ${i}`));
    await as(ctx, patient, {
      method: 'PUT',
      url: `/api/appointments/${ids[0]}`,
      payload: { notes: 'edited' },
    });
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${ids[1]}` });

    const seen = new Map<string, { deleted: boolean; notes?: unknown }>();
    let cursor = 0;
    let pages = 0;
    for (;;) {
      const page = (await pull(patient, `cursor=${cursor}&limit=2`)).json();
      pages++;
      for (const change of page.changes)
        seen.set(change.id, { deleted: change.deleted, notes: change.data?.notes });
      expect(page.reset).toBe(false);
      cursor = page.cursor;
      if (!page.more) break;
    }
    expect(pages).toBe(3); // 5 rows, one of them deleted: each id appears once at its newest version
    expect(seen.size).toBe(5);
    expect(seen.get(ids[0] ?? '')).toEqual({ deleted: false, notes: 'edited' });
    expect(seen.get(ids[1] ?? '')).toEqual({ deleted: true, notes: undefined });
    const nothingNew = (await pull(patient, `cursor=${cursor}`)).json();
    expect(nothingNew).toMatchObject({ changes: [], cursor, more: false, reset: false });
  });

  it("shows a caregiver only linked patients' records of resources they may read", async () => {
    const alice = await makePerson(ctx, 'Patient');
    const bob = await makePerson(ctx, 'Patient');
    const carer = await makePerson(ctx, 'Caregiver');
    const aliceVisit = await book(alice, alice.patientId);
    await book(bob, bob.patientId);
    expect((await pull(carer, 'cursor=0')).json().changes).toEqual([]);
    await link(ctx, bob, carer, ['ReadDoctor']);
    await link(ctx, alice, carer, ['ReadAppointment']);
    const changes = (await pull(carer, 'cursor=0')).json().changes;
    expect(changes.map((change: { id: string }) => change.id)).toEqual([aliceVisit]);
    // and patients see only their own
    expect((await pull(bob, 'cursor=0')).json().changes).toHaveLength(1);
  });

  it('answers a device whose cursor is older than the tombstone horizon with the first page of a full pull', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const first = await book(patient, patient.patientId);
    const old = (await pull(patient, 'cursor=0')).json().cursor;
    const second = await book(patient, patient.patientId);
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${second}` });
    expect(await purgeTombstones(ctx.database.db, new Date(Date.now() + 1000))).toBe(1);
    const reset = (await pull(patient, `cursor=${old}`)).json();
    expect(reset).toMatchObject({ more: false, reset: true });
    expect(reset.changes.map((change: { id: string }) => change.id)).toEqual([first]);
    const fresh = (await pull(patient, 'cursor=0')).json();
    expect(fresh.changes.map((change: { id: string }) => change.id)).toEqual([first]);
    expect(fresh.reset).toBe(false);
  });

  /** Follows one pull to its end: the first page by cursor and scope, the rest by the pages' tokens. */
  async function pullToEnd(
    person: Person,
    first: string,
    between: (page: number) => Promise<void> = async () => {},
  ) {
    const pages: { changes: { id: string; deleted: boolean }[]; reset: boolean; cursor: number }[] = [];
    let query = first;
    for (;;) {
      const response = await pull(person, query);
      expect(response.statusCode).toBe(200);
      const page = response.json();
      pages.push(page);
      if (!page.more) return { pages, last: page };
      expect(pages.length).toBeLessThan(100); // a loop, not a pull
      await between(pages.length);
      query = `limit=${new URLSearchParams(first).get('limit')}&token=${page.token}`;
    }
  }

  it('takes ceil(N/P) requests for N rows at page size P, even after a reset, with tombstones purged long ago', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const gone = await book(patient, patient.patientId, 'Gone');
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${gone}` });
    const before = (await pull(patient, 'cursor=0')).json();
    for (let i = 0; i < 21; i++) await book(patient, patient.patientId, `Visit ${i}`);
    await purgeTombstones(ctx.database.db, new Date(Date.now() + 1000));
    // An old device: its cursor is below the horizon, so the first answer resets, and the pull goes on.
    const stale = await pullToEnd(patient, `cursor=1&scope=${before.scope}&limit=2`);
    expect(stale.pages.length).toBe(Math.ceil(21 / 2));
    expect(stale.pages[0]?.reset).toBe(true);
    expect(stale.pages.slice(1).every((page) => !page.reset)).toBe(true);
    expect(new Set(stale.pages.flatMap((page) => page.changes.map((change) => change.id))).size).toBe(21);
    // A device that was up to date before the purge pages through the new rows without any reset.
    const current = await pullToEnd(patient, `cursor=${before.cursor}&scope=${before.scope}&limit=2`);
    expect(current.pages.length).toBe(11);
    expect(current.pages.every((page) => !page.reset)).toBe(true);
  });

  it('starts a pull over once when the caller gains access in the middle of it, and never again', async () => {
    const alice = await makePerson(ctx, 'Patient');
    const bob = await makePerson(ctx, 'Patient');
    const carer = await makePerson(ctx, 'Caregiver');
    for (let i = 0; i < 6; i++) await book(alice, alice.patientId, `Alice ${i}`);
    for (let i = 0; i < 6; i++) await book(bob, bob.patientId, `Bob ${i}`);
    await link(ctx, alice, carer, ['ReadAppointment']);
    const { pages, last } = await pullToEnd(carer, 'cursor=0&limit=2', async (page) => {
      if (page === 2) await link(ctx, bob, carer, ['ReadAppointment']);
    });
    const resets = pages.map((page) => page.reset);
    expect(resets).toEqual([false, false, true, false, false, false, false, false]);
    const afterReset = pages.slice(2).flatMap((page) => page.changes.map((change) => change.id));
    expect(new Set(afterReset).size).toBe(12); // everything both patients have, in one pass
    const quiet = (await pull(carer, `cursor=${last.cursor}&scope=${last.scope}`)).json();
    expect(quiet).toMatchObject({ changes: [], reset: false, more: false });
  });

  it('starts an incremental pull over when tombstones it still needs are purged under it', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const earlier = await book(patient, patient.patientId, 'Earlier');
    const before = (await pull(patient, 'cursor=0')).json();
    const ids = [earlier];
    for (let i = 0; i < 6; i++) ids.push(await book(patient, patient.patientId, `Visit ${i}`));
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${ids[6]}` });
    const { pages } = await pullToEnd(
      patient,
      `cursor=${before.cursor}&scope=${before.scope}&limit=2`,
      async (page) => {
        if (page === 1) await purgeTombstones(ctx.database.db, new Date(Date.now() + 1000));
      },
    );
    expect(pages.map((page) => page.reset)).toEqual([false, true, false, false]);
    const full = pages.slice(1).flatMap((page) => page.changes.map((change) => change.id));
    expect(full).toEqual(ids.slice(0, 6)); // the purged tombstone is simply gone: the device sweeps it
  });

  it('refuses a page token that is not one it gave', async () => {
    const patient = await makePerson(ctx, 'Patient');
    for (const token of ['abc', Buffer.from('{"position":-1}').toString('base64url'), 'a%20b']) {
      const response = await pull(patient, `token=${token}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('token is not valid.');
    }
  });

  it('keeps tombstones 90 days, so a device offline that long still hears of a delete', async () => {
    const patient = await makePerson(ctx, 'Patient');
    const id = await book(patient, patient.patientId);
    const before = (await pull(patient, 'cursor=0')).json();
    await as(ctx, patient, { method: 'DELETE', url: `/api/appointments/${id}` });
    const day = 24 * 60 * 60 * 1000;
    const deletedDaysAgo = (days: number) =>
      ctx.database.db
        .update(records)
        .set({ deletedAt: new Date(Date.now() - days * day) })
        .where(eq(records.id, id));
    await deletedDaysAgo(89);
    expect((await runHousekeeping(ctx.app)).purged).toBe(0);
    const late = (await pull(patient, `cursor=${before.cursor}&scope=${before.scope}`)).json();
    expect(late.changes).toEqual([expect.objectContaining({ id, deleted: true })]);
    await deletedDaysAgo(91);
    expect((await runHousekeeping(ctx.app)).purged).toBe(1);
    expect((await pull(patient, `cursor=${before.cursor}&scope=${before.scope}`)).json()).toMatchObject({
      reset: true,
    });
  });

  it("moves a quiet caller's cursor past the horizon, so it does not reset on every pull", async () => {
    const quiet = await makePerson(ctx, 'Patient');
    const busy = await makePerson(ctx, 'Patient');
    await book(quiet, quiet.patientId);
    const gone = await book(busy, busy.patientId);
    await as(ctx, busy, { method: 'DELETE', url: `/api/appointments/${gone}` });
    await book(busy, busy.patientId);
    await purgeTombstones(ctx.database.db, new Date(Date.now() + 1000));
    const first = (await pull(quiet, 'cursor=0')).json();
    expect(first.changes).toHaveLength(1);
    const again = (await pull(quiet, `cursor=${first.cursor}&scope=${first.scope}`)).json();
    expect(again).toMatchObject({ changes: [], reset: false, more: false, cursor: first.cursor });
  });

  it('tells a caregiver to start over when their access changed (granted or withdrawn)', async () => {
    const alice = await makePerson(ctx, 'Patient');
    const carer = await makePerson(ctx, 'Caregiver');
    await book(alice, alice.patientId, 'Before the link');
    const empty = (await pull(carer, 'cursor=0')).json();
    await link(ctx, alice, carer, ['ReadAppointment']);
    const everything = (await pull(carer, `cursor=${empty.cursor}&scope=${empty.scope}`)).json();
    expect(everything).toMatchObject({ reset: true, more: false });
    expect(
      everything.changes.map(
        (change: { data: { appointment_title: string } }) => change.data.appointment_title,
      ),
    ).toEqual(['Before the link']);
    await ctx.database.db.delete(careLinks);
    expect((await pull(carer, `cursor=${everything.cursor}&scope=${everything.scope}`)).json()).toMatchObject(
      { reset: true },
    );
    expect((await pull(carer, 'cursor=0')).json().changes).toEqual([]);
  });

  it('checks its query and needs a token', async () => {
    const patient = await makePerson(ctx, 'Patient');
    for (const query of ['cursor=-1', 'cursor=abc', 'limit=0', 'limit=20000', 'scope=a%20b']) {
      const response = await pull(patient, query);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/cursor|limit|scope/);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/sync/pull' })).statusCode).toBe(401);
  });
});
