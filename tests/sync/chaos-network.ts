import { pullResponseSchema, type PullResponse } from '../../src/domain/sync';
import {
  createTransport,
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../src/local/sync-transport';

// The network between one simulated device and the server process, with the faults of the chaos run:
// the device offline, a connection refused (the server is down), an answer lost after the server applied
// the request, a request delivered twice (at once, or again after the answer), 5xx and 429 answers made up
// without reaching the server, a 500 that replaces the answer of a request the server applied, and a stale
// copy of an old request delivered again later. Every decision comes from the device's own seeded
// generator, and every request takes the same number of draws whatever happens to it, so a seed decides
// the same faults for the same sequence of requests.

export type FaultRates = {
  /** The connection fails before the request leaves (no signal, a dropped Wi-Fi). */
  down: number;
  /** The server applied the request and the answer never arrived. */
  lost: number;
  /** The request arrives twice. */
  duplicate: number;
  /** A 5xx made up by a proxy: the server never saw the request. */
  serverError: number;
  /** A 429 made up by a proxy: the server never saw the request. */
  tooMany: number;
  /** The server applied the request, and a proxy replaced its answer with a 500. */
  errorAfterApply: number;
};

export const CALM: FaultRates = {
  down: 0,
  lost: 0,
  duplicate: 0,
  serverError: 0,
  tooMany: 0,
  errorAfterApply: 0,
};

export type NetworkStats = {
  requests: number;
  forwarded: number;
  /** Requests that change something (not pulls) that reached the server. */
  sent: number;
  offline: number;
  lostAnswers: number;
  duplicates: number;
  staleReplays: number;
  injected5xx: number;
  injected429: number;
  replacedWith500: number;
  /** Answers of 401 from the server (expired tokens). */
  unauthorized: number;
  /** 5xx answers the server itself gave: a 500 is a bug; a 503 may be a busy idempotency key. */
  real5xx: string[];
  pulls: number;
  /** Pull answers that told the device to start over (tombstones purged, access changed). */
  resets: number;
  /** The most pull requests one sync made. */
  maxPullsPerSync: number;
};

const DRAWS_PER_REQUEST = 7;
const HISTORY_LIMIT = 300;

export class ChaosNetwork {
  online = true;
  rates: FaultRates = { ...CALM };
  readonly stats: NetworkStats = {
    requests: 0,
    forwarded: 0,
    sent: 0,
    offline: 0,
    lostAnswers: 0,
    duplicates: 0,
    staleReplays: 0,
    injected5xx: 0,
    injected429: 0,
    replacedWith500: 0,
    unauthorized: 0,
    real5xx: [],
    pulls: 0,
    resets: 0,
    maxPullsPerSync: 0,
  };
  /** Called with every request that reaches the server and its answer (the oracle reads upload keys). */
  onAnswer: (request: TransportRequest, response: TransportResponse) => void = () => undefined;
  /** Called just after a request leaves for the server (a mid-flight kill waits for this). */
  onForward: () => void = () => undefined;
  /** Requests that have left for the server and not been answered yet. */
  inFlight = 0;
  private readonly history: TransportRequest[] = [];
  private readonly transports = new Map<string, Transport>();
  private pullsThisSync = 0;
  /** The pull pages this device was given (answers that reached it) during the current sync. */
  private pagesThisSync: PullResponse[] = [];
  private pullLimit = Number.POSITIVE_INFINITY;
  /** Set when one sync made more pull requests than its limit: the pull did not progress. */
  stuckPull: string | null = null;

  constructor(
    private readonly baseURL: () => string,
    private readonly getToken: () => string | null,
    private readonly random: () => number,
  ) {}

  /** The real transport of src/local, for the server's current address (it changes on a restart). */
  private inner(request: TransportRequest): Promise<TransportResponse> {
    const baseURL = this.baseURL();
    let transport = this.transports.get(baseURL);
    if (!transport) {
      transport = createTransport({ baseURL, getToken: this.getToken, timeoutMs: 15_000 });
      this.transports.set(baseURL, transport);
    }
    return transport(request);
  }

  private async deliver(request: TransportRequest): Promise<TransportResponse> {
    this.stats.forwarded++;
    if (request.method !== 'GET') this.stats.sent++;
    const answer = this.inner(request);
    this.inFlight++;
    this.onForward();
    const response = await answer.finally(() => this.inFlight--);
    if (response.status >= 500)
      this.stats.real5xx.push(`${response.status} ${request.method} ${request.url}`);
    if (response.status === 401) this.stats.unauthorized++;
    this.onAnswer(request, response);
    return response;
  }

  /** A sync is about to start: at most `limit` pull requests may follow before it must have finished. */
  beginSync(limit: number): void {
    this.pullsThisSync = 0;
    this.pullLimit = limit;
    this.pagesThisSync = [];
  }

  /**
   * The sync has ended. Answers the records its pulls were told are deleted, from the pages the device
   * has certainly applied: a page is applied before the device goes on past it, so every page it was
   * given counts, except the last one of a pull that did not reach its end (the device may have stopped
   * before applying it). None of those records may show on the device any more.
   */
  endSync(): string[] {
    this.stats.maxPullsPerSync = Math.max(this.stats.maxPullsPerSync, this.pullsThisSync);
    this.pullLimit = Number.POSITIVE_INFINITY;
    const pages = this.pagesThisSync;
    this.pagesThisSync = [];
    const applied = pages.at(-1)?.more === false ? pages : pages.slice(0, -1);
    return applied.flatMap((page) =>
      page.changes.filter((change) => change.deleted).map((change) => change.id),
    );
  }

  readonly transport: Transport = async (request) => {
    this.stats.requests++;
    const [
      down = 1,
      serverError = 1,
      tooMany = 1,
      duplicate = 1,
      duplicateAtOnce = 1,
      replaced = 1,
      lost = 1,
    ] = Array.from({ length: DRAWS_PER_REQUEST }, () => this.random());
    const mutating = request.method !== 'GET';
    if (!mutating && request.url.startsWith('/sync/pull')) {
      this.stats.pulls++;
      this.pullsThisSync++;
      if (this.pullsThisSync > this.pullLimit) {
        this.stuckPull ??= `one sync made more than ${this.pullLimit} pull requests (${request.url})`;
        throw new TransportError('the chaos run stopped a pull that does not progress');
      }
    }
    if (!this.online || down < this.rates.down) {
      this.stats.offline++;
      throw new TransportError('the device is offline');
    }
    if (serverError < this.rates.serverError) {
      this.stats.injected5xx++;
      return {
        status: duplicateAtOnce < 0.5 ? 503 : 502,
        data: { message: 'Injected by the chaos network.' },
      };
    }
    if (tooMany < this.rates.tooMany) {
      this.stats.injected429++;
      return { status: 429, data: { message: 'Too many requests (injected by the chaos network).' } };
    }
    if (mutating) {
      this.history.push(request);
      if (this.history.length > HISTORY_LIMIT) this.history.shift();
    }
    let response: TransportResponse;
    if (mutating && duplicate < this.rates.duplicate) {
      this.stats.duplicates++;
      if (duplicateAtOnce < 0.5) {
        const [first] = await Promise.all([
          this.deliver(request),
          this.deliver(request).catch(() => undefined),
        ]);
        response = first;
      } else {
        response = await this.deliver(request);
        await this.deliver(request).catch(() => undefined);
      }
    } else {
      response = await this.deliver(request);
    }
    if (replaced < this.rates.errorAfterApply) {
      this.stats.replacedWith500++;
      return { status: 500, data: { message: 'Replaced by the chaos network.' } };
    }
    if (lost < this.rates.lost) {
      this.stats.lostAnswers++;
      throw new TransportError('the answer was lost');
    }
    if (!mutating && request.url.startsWith('/sync/pull') && response.status === 200) {
      const page = pullResponseSchema.safeParse(response.data);
      if (page.success) this.pagesThisSync.push(page.data);
      if (page.success && page.data.reset) this.stats.resets++;
    }
    return response;
  };

  /** Delivers an earlier request again, late and out of order; its answer goes nowhere. */
  async replayOldRequest(pick: number): Promise<void> {
    const old = this.history[Math.floor(pick * this.history.length)];
    if (!old) return;
    this.stats.staleReplays++;
    await this.deliver(old).catch(() => undefined);
  }
}
