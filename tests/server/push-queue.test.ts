import { describe, expect, it } from 'vitest';
import { createFairQueue } from '../../src/server/push/queue';

// The queue the reminder pushes go through (src/server/push/README.md): so many at once, so many per
// person, and people taking turns, so that one person's pushes that hang leave room for everyone else's.
// Each task here waits until the test lets it finish, so what runs when is decided by the test alone.

function harness(limits: { concurrency: number; perKey: number }) {
  const queue = createFairQueue(limits);
  const started: string[] = [];
  const finishers = new Map<string, (failure?: Error) => void>();
  const results: Promise<string>[] = [];
  const add = (key: string, name: string) => {
    results.push(
      queue.run(
        key,
        () =>
          new Promise<string>((resolve, reject) => {
            started.push(name);
            finishers.set(name, (failure) => (failure ? reject(failure) : resolve(name)));
          }),
      ),
    );
  };
  /** Lets every promise settled so far run its callbacks: the queue starts what it starts. */
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (name: string, failure?: Error) => {
    const finisher = finishers.get(name);
    if (!finisher) throw new Error(`${name} has not started`);
    finisher(failure);
    await settled();
  };
  return { add, finish, settled, started, results };
}

describe('createFairQueue', () => {
  it('runs at most `concurrency` tasks at once, starting the next as one finishes', async () => {
    const { add, finish, settled, started, results } = harness({ concurrency: 2, perKey: 10 });
    for (const name of ['a', 'b', 'c']) add(name, name);
    await settled();
    expect(started).toEqual(['a', 'b']);
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('b');
    await finish('c');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
  });

  it("gives a key that comes later its turn before another key's next task", async () => {
    const { add, finish, settled, started } = harness({ concurrency: 2, perKey: 10 });
    for (const name of ['a1', 'a2', 'a3', 'a4']) add('a', name);
    add('b', 'b1');
    await settled();
    expect(started).toEqual(['a1', 'a2']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'b1']);
    await finish('a2');
    await finish('b1');
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('runs at most `perKey` tasks of one key at once, leaving the other slots to other keys', async () => {
    const { add, finish, settled, started } = harness({ concurrency: 4, perKey: 2 });
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) add('a', name);
    await settled();
    expect(started).toEqual(['a1', 'a2']); // two slots stay free, though a has tasks waiting
    add('b', 'b1');
    add('c', 'c1');
    await settled();
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']);
    await finish('b1');
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']); // a still holds its two
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3']);
  });

  it("answers a task's failure to its caller and goes on with the rest", async () => {
    const { add, finish, settled, started, results } = harness({ concurrency: 1, perKey: 1 });
    add('a', 'a1');
    add('b', 'b1');
    await settled();
    const failure = expect(results[0]).rejects.toThrow('the push service broke off');
    await finish('a1', new Error('the push service broke off'));
    await failure;
    expect(started).toEqual(['a1', 'b1']);
    await finish('b1');
    expect(await results[1]).toBe('b1');
  });
});
