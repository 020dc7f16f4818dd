import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFull, type Release } from '../../src/server/sandbox/fair-queue';

// The queue in front of the sandbox processes (OCR, photo conversion): one account with a flood of jobs
// gets one running and a small lane; everyone else's jobs go in turn, never behind the flood.

/** Enters a job and records when it starts; `done` ends it. */
function job(queue: FairQueue, account: string, started: string[]) {
  let release: Release | undefined;
  const entered = queue.enter(account).then((handed) => {
    release = handed;
    started.push(account);
  });
  return {
    entered,
    done: async () => {
      await entered;
      release?.();
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairQueue', () => {
  it('runs one job per account at a time and serves the accounts in turn, not in order of arrival', async () => {
    const queue = new FairQueue({ concurrency: 1, perAccountWaiting: 5, totalWaiting: 50 });
    const started: string[] = [];
    const flood = [1, 2, 3, 4].map(() => job(queue, 'mallory', started));
    const alice = job(queue, 'alice', started);
    const bob = job(queue, 'bob', started);
    await tick();
    expect(started).toEqual(['mallory']);
    for (const next of [flood[0], alice, bob, flood[1], flood[2], flood[3]]) {
      await next?.done();
      await tick();
    }
    // Alice and Bob arrived after four of Mallory's jobs and waited for her running one only.
    expect(started).toEqual(['mallory', 'alice', 'bob', 'mallory', 'mallory', 'mallory']);
  });

  it('never runs two jobs of one account at once, even with processes free', async () => {
    const queue = new FairQueue({ concurrency: 3, perAccountWaiting: 5, totalWaiting: 50 });
    const started: string[] = [];
    const first = job(queue, 'mallory', started);
    job(queue, 'mallory', started);
    const alice = job(queue, 'alice', started);
    await tick();
    expect(started).toEqual(['mallory', 'alice']);
    expect(queue.load).toEqual({ running: 2, waiting: 1 });
    await first.done();
    await tick();
    expect(started).toEqual(['mallory', 'alice', 'mallory']);
    await alice.done();
  });

  it('refuses an account whose own lane is full, with a wait to retry after, and nobody else', async () => {
    const queue = new FairQueue({ concurrency: 1, perAccountWaiting: 2, totalWaiting: 50 });
    const started: string[] = [];
    job(queue, 'mallory', started); // runs
    job(queue, 'mallory', started); // waits
    job(queue, 'mallory', started); // waits
    await tick();
    const refusal = await queue.enter('mallory').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(QueueFull);
    expect((refusal as QueueFull).scope).toBe('account');
    expect((refusal as QueueFull).retryAfterSeconds).toBeGreaterThanOrEqual(5);
    // Another patient is let in while Mallory's lane is full.
    const alice = job(queue, 'alice', started);
    expect(queue.load).toEqual({ running: 1, waiting: 3 });
    void alice;
  });

  it('bounds the whole queue when very many accounts send at once', async () => {
    const queue = new FairQueue({ concurrency: 1, perAccountWaiting: 2, totalWaiting: 3 });
    const started: string[] = [];
    for (const account of ['a', 'b', 'c', 'd']) job(queue, account, started);
    await tick();
    const refusal = await queue.enter('e').catch((error: unknown) => error);
    expect((refusal as QueueFull).scope).toBe('server');
  });

  it('refuses every waiting job when closing, and a released job hands its turn on only once', async () => {
    const queue = new FairQueue({ concurrency: 1, perAccountWaiting: 2, totalWaiting: 10 });
    const release = await queue.enter('a');
    const waiting = queue.enter('b');
    queue.refuseAll(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
    release();
    release();
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });
});
