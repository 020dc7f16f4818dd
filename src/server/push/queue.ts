// Runs pushes a few at a time, taking turns between people, so that whoever owns endpoints that never
// answer holds a few sending slots for one timeout each and no more (README.md beside this file).

/** How many pushes one server sends at once. */
export const MAX_CONCURRENT_PUSHES = 32;
/** How many of them may go to one person's devices at once: one person's slow devices leave the rest free. */
export const MAX_CONCURRENT_PUSHES_PER_PERSON = 4;

export type FairQueue = {
  /** Runs `task` when a slot is free and it is `key`'s turn; answers what the task answers. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
};

export function createFairQueue(limits: { concurrency: number; perKey: number }): FairQueue {
  // Keys with tasks waiting, in the order of their turns: a key served goes to the back. The next task
  // is that of the key with the fewest tasks running, the first in turn among equals, so that a key
  // whose tasks hang (and so keep running) yields to every key that has nothing running.
  const waiting = new Map<string, (() => void)[]>();
  const runningByKey = new Map<string, number>();
  let running = 0;

  function nextKey(): string | undefined {
    let chosen: string | undefined;
    let fewest = limits.perKey;
    for (const key of waiting.keys()) {
      const count = runningByKey.get(key) ?? 0;
      if (count < fewest) {
        chosen = key;
        fewest = count;
      }
    }
    return chosen;
  }

  function pump(): void {
    while (running < limits.concurrency) {
      const key = nextKey();
      if (key === undefined) return;
      const tasks = waiting.get(key) ?? [];
      const start = tasks.shift();
      waiting.delete(key);
      if (tasks.length > 0) waiting.set(key, tasks);
      if (!start) continue;
      running += 1;
      runningByKey.set(key, (runningByKey.get(key) ?? 0) + 1);
      start();
    }
  }

  function finished(key: string): void {
    running -= 1;
    const left = (runningByKey.get(key) ?? 1) - 1;
    if (left === 0) runningByKey.delete(key);
    else runningByKey.set(key, left);
    pump();
  }

  return {
    run(key, task) {
      return new Promise((resolve, reject) => {
        const start = () => {
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => finished(key));
        };
        const tasks = waiting.get(key);
        if (tasks) tasks.push(start);
        else waiting.set(key, [start]);
        pump();
      });
    },
  };
}
