import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config';

// Rate limits: in memory, or shared by every server through Redis (registered by app.ts).

/**
 * With REDIS_URL, every limit (route configs, app.rateLimit() and app.createRateLimit()) is counted in
 * Redis, so a limit holds however many servers answer. Without it, each server counts alone in memory.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  if (!config.redisUrl) {
    await app.register(rateLimit, { global: false });
    return;
  }
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    // Long enough for a loaded machine; only the start waits for it (a Redis that does not answer at all
    // delays the start by this much, then the server runs with limits in memory until it is back).
    connectTimeout: 5000,
    // A command while Redis is away fails at once (and is counted in memory) instead of waiting in a
    // queue, so a dead Redis never holds a request.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
  });
  let healthy = true;
  redis.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    app.log.error(
      { err: error },
      'Redis is unreachable: rate limits are counted by this server alone until it is back',
    );
  });
  redis.on('ready', () => {
    if (!healthy) app.log.info('Redis is back: rate limits are shared again');
    healthy = true;
  });
  try {
    await redis.connect();
  } catch {
    // Logged by the error listener; the server starts, and ioredis keeps reconnecting.
  }
  app.addHook('onClose', async () => {
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  });
  await app.register(rateLimit, {
    global: false,
    store: sharedLimitStore(redis, `${config.redisKeyPrefix}rate-limit:`, app.log),
  });
}

type Counter = { current: number; ttl: number };
type CounterCallback = (error: Error | null, result?: Counter) => void;
type LimitParams = {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  groupId?: string;
  routeInfo?: { method?: unknown; url?: unknown };
};

// One window per key: the first hit sets its expiry; hits past `max` may restart it (continueExceeding)
// or double it each time (exponentialBackoff), as @fastify/rate-limit's own stores do.
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
if current == 1 or (ARGV[3] == '1' and current > max) then
  redis.call('PEXPIRE', KEYS[1], window)
elseif ARGV[4] == '1' and current > max then
  window = math.min(window * (2 ^ (current - max - 1)), 9007199254740991)
  redis.call('PEXPIRE', KEYS[1], window)
else
  window = redis.call('PTTL', KEYS[1])
  if window < 0 then
    window = tonumber(ARGV[1])
    redis.call('PEXPIRE', KEYS[1], window)
  end
end
return {current, window}`;

const READ_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

type LimitCommands = {
  kincareLimitIncrement: (
    key: string,
    window: number,
    max: number,
    restart: string,
    backoff: string,
  ) => Promise<[number, number]>;
  kincareLimitRead: (key: string) => Promise<[number, number]>;
};

/**
 * A store for @fastify/rate-limit that counts in Redis and, while Redis cannot answer, in this server's
 * memory: the limits stay (per server) and sign-in keeps working, rather than either failing every
 * limited request or dropping the limits. Each route's counters live under its method and path;
 * limiters made with app.rateLimit()/app.createRateLimit() under their `groupId`.
 */
function sharedLimitStore(redis: Redis, prefix: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  redis.defineCommand('kincareLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  redis.defineCommand('kincareLimitRead', { numberOfKeys: 1, lua: READ_SCRIPT });
  const commands = redis as unknown as LimitCommands;
  let warnedAt = 0;
  const fellBack = (error: unknown) => {
    // Once a minute at most: an outage would otherwise log every limited request.
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    log.warn({ err: error }, 'a rate limit was counted in memory: Redis did not answer');
  };

  class Store {
    private readonly memory = new Map<string, { current: number; startedAt: number; ttl: number }>();

    constructor(
      private readonly params: LimitParams = {},
      private readonly namespace = `${prefix}global:`,
    ) {}

    incr(key: string, callback: CounterCallback, timeWindow: number, max: number): void {
      if (redis.status !== 'ready') {
        fellBack(new Error(`Redis is ${redis.status}`));
        callback(null, this.countInMemory(key, timeWindow, max));
        return;
      }
      commands
        .kincareLimitIncrement(
          this.redisKey(key),
          timeWindow,
          max,
          this.params.continueExceeding ? '1' : '0',
          this.params.exponentialBackoff ? '1' : '0',
        )
        .then(
          ([current, ttl]) => callback(null, { current, ttl }),
          (error: unknown) => {
            fellBack(error);
            callback(null, this.countInMemory(key, timeWindow, max));
          },
        );
    }

    read(key: string, callback: CounterCallback, timeWindow: number): void {
      const fromMemory = () => {
        const entry = this.memory.get(key);
        const alive = entry && entry.startedAt + timeWindow > Date.now();
        return alive
          ? { current: entry.current, ttl: entry.startedAt + entry.ttl - Date.now() }
          : { current: 0, ttl: 0 };
      };
      if (redis.status !== 'ready') {
        callback(null, fromMemory());
        return;
      }
      commands.kincareLimitRead(this.redisKey(key)).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: unknown) => {
          fellBack(error);
          callback(null, fromMemory());
        },
      );
    }

    // Typed by @fastify/rate-limit as the route's options; it is in fact the limit's merged parameters.
    child(options: object): Store {
      const routeOptions = options as LimitParams;
      const route = routeOptions.routeInfo;
      const scope =
        typeof route?.url === 'string'
          ? `${String(route.method)}${route.url}`
          : `limiter:${routeOptions.groupId ?? 'unnamed'}`;
      return new Store(routeOptions, `${prefix}${scope}:`);
    }

    /**
     * Keys name who is limited (an address, an e-mail, an account): Redis gets a hash of them, so its
     * memory, dumps and MONITOR output hold no e-mail addresses.
     */
    private redisKey(key: string): string {
      return this.namespace + createHash('sha256').update(key).digest('base64url');
    }

    private countInMemory(key: string, timeWindow: number, max: number): Counter {
      const now = Date.now();
      if (this.memory.size > 10_000) {
        for (const [name, entry] of this.memory)
          if (entry.startedAt + entry.ttl <= now) this.memory.delete(name);
      }
      const entry = this.memory.get(key);
      if (!entry || entry.startedAt + entry.ttl <= now) {
        const fresh = { current: 1, startedAt: now, ttl: timeWindow };
        this.memory.set(key, fresh);
        return { current: 1, ttl: timeWindow };
      }
      entry.current += 1;
      if (entry.current > max && (this.params.continueExceeding || this.params.exponentialBackoff)) {
        entry.startedAt = now;
        entry.ttl = this.params.exponentialBackoff
          ? Math.min(timeWindow * 2 ** (entry.current - max - 1), Number.MAX_SAFE_INTEGER)
          : timeWindow;
      }
      return { current: entry.current, ttl: entry.startedAt + entry.ttl - now };
    }
  }
  return Store as unknown as FastifyRateLimitStoreCtor;
}
