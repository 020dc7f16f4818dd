import { createHash } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config';
import type { Database } from './db/client';
import { errorsPlugin } from './plugins/errors';
import { headersPlugin, isApiPath } from './plugins/headers';
import { loggerOptions } from './plugins/logging';
import { docsPlugin } from './plugins/docs';
import { staticAppPlugin } from './plugins/static-app';
import { authPlugin } from './plugins/auth';
import { mailPlugin } from './plugins/mail';
import { storagePlugin } from './plugins/storage';
import { healthRoutes } from './routes/health';
import { authRoutes } from './routes/auth';
import { appointmentRoutes } from './routes/appointments';
import { syncRoutes } from './routes/sync';
import { requestRoutes } from './routes/requests';
import { uploadRoutes } from './routes/uploads';
import { scheduleHousekeeping } from './services/housekeeping';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
  }
}

export type AppOptions = {
  config: Config;
  db: Database;
  distDir?: string;
  /** Where the JSON log lines go (tests capture them here); stdout by default. */
  logStream?: NodeJS.WritableStream;
};

const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Builds the server. Plugins load in a fixed order: external (security headers, limits, parsers),
 * then ours (errors, docs, mail, storage, auth), then the routes under /api, then the PWA at the root.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: false,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);

  // helmet's headers are the same for every answer; @fastify/helmet works them out again (building
  // helmet and parsing the CSP) on every request, so they are worked out once here and set from a table.
  const securityHeaders = await helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(securityHeaders);
  });
  await app.register(headersPlugin);
  await registerRateLimits(app, config);
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 30, fieldSize: 100_000 },
    throwFileSizeLimit: true,
  });
  await app.register(errorsPlugin);
  await app.register(docsPlugin);
  await app.register(mailPlugin);
  await app.register(storagePlugin);
  await app.register(authPlugin);

  await app.register(
    async (api) => {
      // JSON answers of the API, compressed when they are worth it (a page of a pull, a list of records).
      // Registered here, not at the root: the built PWA is already compressed on disk (static-app.ts)
      // and stored files (/api/files, served from the root) are images and PDFs that do not shrink.
      // Request bodies are never inflated: a compressed upload could otherwise unpack far past its size.
      await api.register(compress, {
        threshold: 1024,
        encodings: ['br', 'gzip'],
        globalDecompression: false,
        brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
      });
      api.setNotFoundHandler((request, reply) => reply.status(404).send(API_NOT_FOUND));
      await api.register(healthRoutes);
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(appointmentRoutes, { prefix: '/appointments' });
      await api.register(syncRoutes, { prefix: '/sync' });
      await api.register(requestRoutes, { prefix: '/request' });
      await api.register(uploadRoutes, { prefix: '/upload-image' });
    },
    { prefix: '/api' },
  );
  scheduleHousekeeping(app);
  await app.register(staticAppPlugin, { distDir: options.distDir ?? defaultDistDir, isApiPath });
  return app;
}

const API_NOT_FOUND = { message: 'Not found' };

const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"], // react-hot-toast injects its styles at run time
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      manifestSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // Sent by the headers plugin, and only over HTTPS.
  strictTransportSecurity: false,
};

/** The headers @fastify/helmet sets with these options, read once from an answer of a throwaway server. */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const answer = await probe.inject('/');
    const bare = Fastify();
    bare.get('/', async () => '');
    const without = await bare.inject('/');
    await bare.close();
    // Only what helmet added: not the date, length and type every answer has.
    return Object.fromEntries(
      Object.entries(answer.headers).flatMap(([name, value]) =>
        name in without.headers || value === undefined ? [] : [[name, String(value)]],
      ),
    );
  } finally {
    await probe.close();
  }
}

/**
 * Fastify's trustProxy from TRUST_PROXY. Fastify trusts no proxy at all for a bare hop count (a client
 * that reaches the server directly could send as many forged hops as it likes); with TRUST_PROXY=<n> the
 * operator says the server is reached only through n proxies, so the n nearest hops are trusted.
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

// ---- Rate limits: in memory, or shared by every server through Redis ----

/**
 * With REDIS_URL, every limit (route configs, app.rateLimit() and app.createRateLimit()) is counted in
 * Redis, so a limit holds however many servers answer. Without it, each server counts alone in memory.
 */
async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
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
