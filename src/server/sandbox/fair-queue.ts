// Who goes next when more documents wait than there are processes to read them. One queue served first
// come, first served lets one account fill it (an outside attack run saw another patient get 503s, or wait
// over two minutes, behind one person's jobs). Here each account has a lane: at most one of its jobs runs
// at a time, at most `perAccountWaiting` of its jobs wait, and a free process goes to the account served
// longest ago (round robin over the accounts with work waiting). An account whose own lane is full is refused with
// a wait to retry after; nobody else is refused because of it. `totalWaiting` bounds the queue's memory (the
// waiting jobs hold their files) when very many accounts send at once.

export type FairQueueOptions = {
  /** Jobs that may run at once (the sandbox's processes). */
  concurrency: number;
  /** Jobs one account may have waiting; one more is refused (QueueFull, scope 'account'). */
  perAccountWaiting: number;
  /** Jobs that may wait in all; one more is refused (QueueFull, scope 'server'). */
  totalWaiting: number;
};

/** Refused: the account's own lane is full ('account'), or the whole queue is ('server'). */
export class QueueFull extends Error {
  constructor(
    readonly scope: 'account' | 'server',
    /** When a retry is likely to be let in, from how long jobs have been taking. */
    readonly retryAfterSeconds: number,
  ) {
    super(scope === 'account' ? 'this account already has its share of the queue' : 'the queue is full');
    this.name = 'QueueFull';
  }
}

/** Hands the turn on; call it once the job has ended, however it ended. */
export type Release = () => void;

type Waiter = { start: (release: Release) => void; refuse: (error: Error) => void };

const MIN_RETRY_SECONDS = 5;
const MAX_RETRY_SECONDS = 300;
/** Until jobs have been timed, the wait a retry is told. */
const FIRST_GUESS_JOB_MS = 5_000;

export class FairQueue {
  private readonly lanes = new Map<string, Waiter[]>();
  /** Accounts with a job running. */
  private readonly runningAccounts = new Set<string>();
  /** When each account was last served (a counter): the one served longest ago goes next. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private running = 0;
  private waiting = 0;
  private averageJobMs = FIRST_GUESS_JOB_MS;

  constructor(private readonly options: FairQueueOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`${name} must be a whole number of 1 or more, got ${value}`);
    }
  }

  /** Waits for this account's turn; rejects with QueueFull when its lane (or the queue) is full. */
  enter(account: string): Promise<Release> {
    const lane = this.lanes.get(account) ?? [];
    if (lane.length >= this.options.perAccountWaiting)
      return Promise.reject(new QueueFull('account', this.retryAfter(lane.length + 1)));
    if (this.waiting >= this.options.totalWaiting)
      return Promise.reject(
        new QueueFull('server', this.retryAfter(this.waiting / this.options.concurrency)),
      );
    return new Promise<Release>((start, refuse) => {
      lane.push({ start, refuse });
      this.lanes.set(account, lane);
      this.waiting += 1;
      this.dispatch();
    });
  }

  /** Refuses every job still waiting (the service is closing). */
  refuseAll(error: Error): void {
    for (const lane of this.lanes.values()) for (const waiter of lane.splice(0)) waiter.refuse(error);
    this.lanes.clear();
    this.waiting = 0;
  }

  /** Jobs running and waiting now, for tests and the benchmark. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  private retryAfter(jobsAhead: number): number {
    const seconds = Math.ceil((this.averageJobMs * Math.max(1, jobsAhead)) / 1000);
    return Math.min(MAX_RETRY_SECONDS, Math.max(MIN_RETRY_SECONDS, seconds));
  }

  /**
   * The account to serve next: of those with work waiting and nothing running, the one served longest ago
   * (an account never served first; among those, the first to arrive: lanes keep their insertion order).
   */
  private nextAccount(): string | undefined {
    let chosen: string | undefined;
    let chosenServed = Infinity;
    for (const account of this.lanes.keys()) {
      if (this.runningAccounts.has(account)) continue;
      const served = this.lastServed.get(account) ?? -1;
      if (served < chosenServed) {
        chosen = account;
        chosenServed = served;
      }
    }
    return chosen;
  }

  /** Starts waiting jobs while a slot is free and some account with work waiting has nothing running. */
  private dispatch(): void {
    while (this.running < this.options.concurrency) {
      const account = this.nextAccount();
      if (account === undefined) return;
      const lane = this.lanes.get(account) as Waiter[];
      const waiter = lane.shift() as Waiter;
      if (lane.length === 0) this.lanes.delete(account);
      this.served += 1;
      this.lastServed.set(account, this.served);
      this.waiting -= 1;
      this.running += 1;
      this.runningAccounts.add(account);
      const startedAt = Date.now();
      let released = false;
      waiter.start(() => {
        if (released) return;
        released = true;
        this.running -= 1;
        this.runningAccounts.delete(account);
        // A slow moving average: one odd job does not swing the advice much.
        this.averageJobMs = this.averageJobMs * 0.8 + (Date.now() - startedAt) * 0.2;
        // Forget an account with nothing left here: the map stays as small as the queue.
        if (!this.lanes.has(account)) this.lastServed.delete(account);
        this.dispatch();
      });
    }
  }
}
