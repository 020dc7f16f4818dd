import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BETA_POLICY_NOT_ACCEPTED } from '../../../src/domain/error-texts';
import type { PushChange } from '../../../src/domain/sync';
import { addAppointment } from '../../../src/local/appointments';
import { DB_PREFIX, KincareDb } from '../../../src/local/db';
import { discardFailed, onOutboxChange, retryRefused } from '../../../src/local/outbox';
import { push } from '../../../src/local/sync-push';
import { TransportError, type Transport } from '../../../src/local/sync-transport';

// A change the server refused can be sent again when the refusal can be lifted (a 403: a permission given
// since, the beta policy accepted; a 401: a sign-in), and only then: a change refused for good (400, 404,
// 409) would be refused again, so only Discard is offered. Sent again, it is pending in its place, shown
// again, and carries a new idempotency key (the server kept the refusal as the old key's final answer);
// every resend of it is the same request, and the server applies it exactly once.

const PATIENT = '7d1f1c1e-0000-4000-8000-000000000001';

/**
 * A server that keeps answers by idempotency key, as the real one does (services/idempotency.ts): a refusal
 * or a success is the key's final answer, and a repeated key gets it again without applying anything.
 */
function fakeServer() {
  const answers = new Map<string, { status: number; body: unknown }>();
  const applied: PushChange[] = [];
  const sent: PushChange[] = [];
  const state = {
    /** How the server answers a change it has not answered before. */
    refuseWith: null as { status: number; body: unknown } | null,
    /** The next push is applied, but its answer never reaches the device. */
    loseNextAnswer: false,
  };
  const transport: Transport = async (request) => {
    const changes = (request.body as { changes: PushChange[] }).changes;
    const results = changes.map((change) => {
      sent.push(change);
      let answer = answers.get(change.idempotency_key);
      if (!answer) {
        if (state.refuseWith) answer = state.refuseWith;
        else {
          applied.push(change);
          answer = {
            status: 201,
            body: { success: true, data: { ...change.payload, version: applied.length } },
          };
        }
        answers.set(change.idempotency_key, answer);
      }
      return { idempotency_key: change.idempotency_key, status: answer.status, body: answer.body };
    });
    if (state.loseNextAnswer) {
      state.loseNextAnswer = false;
      throw new TransportError('the answer was lost');
    }
    return { status: 200, data: { results } };
  };
  return { transport, state, applied, sent };
}

const visit = (title: string) => ({
  patient_id: PATIENT,
  caregiver_id: null,
  appointment_title: title,
  appointment_date: '2026-12-03T09:00:00.000Z',
  doctor_id: null,
  location: '',
  notes: '',
  status: 'scheduled' as const,
});

const NOT_ALLOWED = {
  status: 403,
  body: { message: 'You do not have permission to do this for this patient.' },
};

let db: KincareDb;
let server: ReturnType<typeof fakeServer>;

beforeEach(async () => {
  db = new KincareDb(`${DB_PREFIX}retry-refused-${crypto.randomUUID()}`);
  await db.open();
  server = fakeServer();
});

afterEach(async () => {
  await db.delete();
});

/** Queues a visit and has the server refuse it with `refusal`: the change is then failed on the device. */
async function refusedVisit(title: string, refusal: { status: number; body: unknown }) {
  const id = await addAppointment(db, visit(title));
  server.state.refuseWith = refusal;
  const outcome = await push(db, server.transport, { force: true });
  expect(outcome.rejected).toHaveLength(1);
  server.state.refuseWith = null;
  const [entry] = await db.outbox.toArray();
  expect(entry?.status).toBe('failed');
  return { id, entry: entry ?? expect.fail('no outbox entry') };
}

describe('retryRefused', () => {
  it('keeps why the server refused a change: its status and code', async () => {
    const { entry, id } = await refusedVisit('Knee check', NOT_ALLOWED);
    expect(entry.refusal).toEqual({ status: 403 });
    expect(entry.error).toBe('You do not have permission to do this for this patient.');
    // Rolled back on screen until the person decides.
    expect(await db.appointments.get(id)).toBeUndefined();
  });

  it('sends a change refused for a permission again once, under a new key, and the server applies it once', async () => {
    const { entry, id } = await refusedVisit('Knee check', NOT_ALLOWED);
    const told: number[] = [];
    const stop = onOutboxChange(() => told.push(1));

    expect(await retryRefused(db, entry.seq ?? -1)).toBe(true);
    stop();
    const [again] = await db.outbox.toArray();
    expect(again).toMatchObject({ seq: entry.seq, status: 'pending', attempts: 0, nextAttemptAt: 0 });
    expect(again?.idempotencyKey).not.toBe(entry.idempotencyKey);
    expect(again).not.toHaveProperty('error');
    expect(again).not.toHaveProperty('refusal');
    // Shown again at once, and the sync is told a change waits (sync-client.ts pushes soon after).
    expect((await db.appointments.get(id))?.appointment_title).toBe('Knee check');
    expect(told).toHaveLength(1);
    // A second tap (or another tab) finds nothing refused to send again.
    expect(await retryRefused(db, entry.seq ?? -1)).toBe(false);

    const outcome = await push(db, server.transport, { force: true });
    expect(outcome.sent).toBe(1);
    expect(server.applied.map((change) => change.payload?.appointment_title)).toEqual(['Knee check']);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.appointments.get(id))?.appointment_title).toBe('Knee check');
    // Nothing is left to send.
    const sentBefore = server.sent.length;
    await push(db, server.transport, { force: true });
    expect(server.sent.length).toBe(sentBefore);
  });

  it('is applied once even when the answer to the resend is lost and it is sent once more', async () => {
    const { entry } = await refusedVisit('Knee check', NOT_ALLOWED);
    await retryRefused(db, entry.seq ?? -1);
    server.state.loseNextAnswer = true;
    expect((await push(db, server.transport, { force: true })).stoppedBy).toBe('retry-later');
    expect(await db.outbox.where('status').equals('pending').count()).toBe(1);
    await push(db, server.transport, { force: true });
    const keys = server.sent.slice(1).map((change) => change.idempotency_key);
    // The same request twice (the same new key), applied once.
    expect(new Set(keys).size).toBe(1);
    expect(keys).toHaveLength(2);
    expect(server.applied).toHaveLength(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('refused again, the change is failed again with the new refusal', async () => {
    const { entry } = await refusedVisit('Knee check', NOT_ALLOWED);
    await retryRefused(db, entry.seq ?? -1);
    server.state.refuseWith = NOT_ALLOWED;
    await push(db, server.transport, { force: true });
    const [again] = await db.outbox.toArray();
    expect(again).toMatchObject({ status: 'failed', refusal: { status: 403 } });
    expect(server.applied).toHaveLength(0);
  });

  it('keeps the code of a refusal for the beta policy, which can be lifted too', async () => {
    // Such a change is held, not refused, by this device's push (sync-push.ts); one refused by an older
    // app keeps its refusal, and sending it again once the policy is accepted can succeed.
    const id = await addAppointment(db, visit('Eye test'));
    const [queued] = await db.outbox.toArray();
    await db.outbox.update(queued?.seq ?? -1, {
      status: 'failed',
      error: 'Please accept the Beta User Policy first.',
      refusal: { status: 403, code: BETA_POLICY_NOT_ACCEPTED },
    });
    expect(await retryRefused(db, queued?.seq ?? -1)).toBe(true);
    await push(db, server.transport, { force: true });
    expect(server.applied.map((change) => change.id)).toEqual([id]);
  });

  it.each([
    ['a rule the change breaks (400)', { status: 400, body: { message: 'Title is required.' } }],
    ['a record gone (404)', { status: 404, body: { message: 'Appointment not found.' } }],
    [
      'a record deleted on another device (409)',
      { status: 409, body: { message: 'This appointment was deleted on another device.' } },
    ],
  ])('does not send again a change refused for good: %s', async (_case, refusal) => {
    const { entry, id } = await refusedVisit('Knee check', refusal);
    expect(entry.refusal).toEqual({ status: refusal.status });
    expect(await retryRefused(db, entry.seq ?? -1)).toBe(false);
    const [still] = await db.outbox.toArray();
    expect(still).toMatchObject({ status: 'failed', idempotencyKey: entry.idempotencyKey });
    expect(await db.appointments.get(id)).toBeUndefined();
    const sentBefore = server.sent.length;
    await push(db, server.transport, { force: true });
    expect(server.sent.length).toBe(sentBefore);
    // Discard is the way out.
    await discardFailed(db, entry.seq ?? -1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('does not send again a change refused before the device kept why (no refusal stored)', async () => {
    await addAppointment(db, visit('Old one'));
    const [queued] = await db.outbox.toArray();
    await db.outbox.update(queued?.seq ?? -1, { status: 'failed', error: 'Refused.' });
    expect(await retryRefused(db, queued?.seq ?? -1)).toBe(false);
    expect((await db.outbox.toArray())[0]?.status).toBe('failed');
  });

  it('does nothing for a change that is pending or gone', async () => {
    await addAppointment(db, visit('Pending'));
    const [queued] = await db.outbox.toArray();
    expect(await retryRefused(db, queued?.seq ?? -1)).toBe(false);
    expect(await retryRefused(db, 9999)).toBe(false);
    expect((await db.outbox.toArray())[0]?.idempotencyKey).toBe(queued?.idempotencyKey);
  });
});
