import { ConfigError } from './config-error';
import { stripeConfig, stripeEnvShape, type StripeConfig } from './config-billing';
import { weatherApiUrlSchema } from './config-weather';
import { fitbitConfig, fitbitEnvShape, type FitbitConfig } from './config-fitbit';
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';

// Every setting of the server, read from the environment once at start and checked, so that a typo in
// a variable stops the server with a clear message instead of surfacing as a strange failure later.
// The README lists the same settings; keep the two together.

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A whole number written in plain digits ('0x50', '1e3' or ' ' are mistakes, not numbers). */
const wholeNumber = (min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );

const MB = 1024 * 1024;

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may tell the server who the client is (X-Forwarded-For, -Proto, -Host): nobody (the
 * default), every sender ('true': only when the server cannot be reached except through a proxy that
 * overwrites these headers), a hop count, or the proxies' addresses and CIDRs.
 */
export type TrustProxy = boolean | number | string[];

const trustProxySchema = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((value, context): TrustProxy => {
      const text = value.trim();
      if (text === 'false') return false;
      if (text === 'true') return true;
      if (/^\d+$/.test(text)) {
        const hops = Number(text);
        if (hops >= 1 && hops <= 20) return hops;
      }
      const entries = text.split(',').map((entry) => entry.trim());
      if (entries.length > 0 && entries.every(isAddressOrRange)) return entries;
      context.addIssue({
        code: 'custom',
        message: 'must be true, false, a hop count from 1 to 20, or a comma list of addresses and CIDRs',
      });
      return z.NEVER;
    })
    .default(false),
);

const envSchema = z.object({
  PORT: wholeNumber(0, 65535, 8080),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL_HOURS: wholeNumber(1, 24 * 90, 24 * 7),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Kincare <no-reply@kincare.local>')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  BODY_LIMIT_BYTES: wholeNumber(1024, 1024 * 1024 * 1024, 1024 * 1024),
  UPLOAD_LIMIT_BYTES: wholeNumber(1024, 1024 * 1024 * 1024, 10 * 1024 * 1024),
  RATE_LIMIT_LOGIN_PER_MINUTE: wholeNumber(1, 100_000, 10),
  RATE_LIMIT_OTP_PER_MINUTE: wholeNumber(1, 100_000, 5),
  /** Uploads per minute per person (the daily quota below is the slower, larger bound). */
  RATE_LIMIT_UPLOADS_PER_MINUTE: wholeNumber(1, 100_000, 30),
  /** See TrustProxy. Off by default: a client could otherwise pick its own address for every limit. */
  TRUST_PROXY: trustProxySchema,
  /** redis:// or rediss://: rate limits are counted there, shared by every server; unset, in memory. */
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  /** Put before every Redis key of this server, so several installs (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:._-]{1,100}$/, 'must be 1 to 100 letters, digits or : . _ -')
      .default('kincare:'),
  ),
  /** Files one person may upload in 24 hours. */
  UPLOAD_DAILY_FILES: wholeNumber(1, 1_000_000, 100),
  /** Bytes one person may upload in 24 hours. */
  UPLOAD_DAILY_BYTES: wholeNumber(1024, 2 ** 50, 200 * MB),
  /** Bytes of files one person may have stored at once. */
  UPLOAD_TOTAL_BYTES: wholeNumber(1024, 2 ** 50, 2048 * MB),
  /** The most pixels an uploaded image may claim in its header (width times height). */
  UPLOAD_MAX_PIXELS: wholeNumber(1, 10_000_000_000, 50_000_000),
  /** Web Push (medicine reminders): the VAPID key pair, base64url; unset, one is made and kept in DATA_DIR. */
  VAPID_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  VAPID_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  /** Who push services may contact about this server's pushes: a mailto: or https: address. */
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: or https: address')
      .default('mailto:no-reply@kincare.local'),
  ),
  /** How often the reminder sweep runs (seconds); 0 turns reminders off on this server. */
  REMINDER_INTERVAL_SECONDS: wholeNumber(0, 3600, 30),
  /** Doses due longer ago than this when a server (re)starts get no late reminder (minutes). */
  REMINDER_CATCH_UP_MINUTES: wholeNumber(1, 24 * 60, 120),
  /** (tests only) accept http:// push endpoints and loopback addresses, for a local push service (push/README.md). */
  PUSH_ALLOW_HTTP_ENDPOINTS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  /** Label photos and lab reports read at once (each worker holds about 230 MB). */
  OCR_WORKERS: wholeNumber(1, 16, 1),
  /** The longest one document may take to read (ms). */
  OCR_TIMEOUT_MS: wholeNumber(1000, 600_000, 60_000),
  /** The most pages of a PDF read. */
  OCR_MAX_PAGES: wholeNumber(1, 100, 5),
  /** Documents one account may have waiting to be read, besides the one being read (src/server/sandbox). */
  OCR_QUEUE_PER_ACCOUNT: wholeNumber(1, 100, 2),
  /** Documents waiting to be read in all, from every account. */
  OCR_QUEUE_TOTAL: wholeNumber(1, 10_000, 40),
  /** The memory ceiling of each process that decodes a file a person sent (MiB; src/server/sandbox). */
  DECODE_MEMORY_MB: wholeNumber(256, 65_536, 1024),
  /** HEIC photos converted to JPEG at once (each process up to DECODE_MEMORY_MB). */
  IMAGE_CONVERTERS: wholeNumber(1, 16, 1),
  /** Set, payments go through Stripe; unset, through the built-in test-mode checkout (config-billing.ts). */
  ...stripeEnvShape,
  /** The weather service (Open-Meteo's API) the header's weather is asked from (config-weather.ts). */
  WEATHER_API_URL: weatherApiUrlSchema,
  /** Fitbit (config-fitbit.ts): set up when FITBIT_CLIENT_ID is set. */
  ...fitbitEnvShape,
  /** Set, uploaded files go to this bucket of an S3-compatible object store instead of DATA_DIR/files. */
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be an S3 bucket name: 3 to 63 lower-case letters, digits, dots or hyphens',
      )
      .optional(),
  ),
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]{1,50}$/, 'must be a region name such as us-east-1 (lower-case letters, digits, -)')
      .default('us-east-1'),
  ),
  /** The object store's address when it is not AWS (MinIO, s3rver, another provider's S3 API). */
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
      .refine((value) => !/[?#]/.test(value), 'must be an address with no query or fragment')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  /** Bucket in the path (http://host/bucket/key) rather than the host name: most S3-compatible servers need it. */
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  /** A folder of the bucket that holds every object of this install (several installs can share a bucket). */
  S3_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(200, 'must be at most 200 characters')
      .regex(
        /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/,
        'must be folder names of letters, digits, . _ - separated by /, none starting with a dot',
      )
      .optional(),
  ),
});

/** The S3-compatible object store that keeps uploaded files (config.s3; unset, files stay on disk). */
export type S3Config = {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  /** Unset: the AWS SDK's default chain (environment, shared files, the instance's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** Put before every object name: '' or a folder ending in '/'. */
  prefix: string;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string;
  tokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  rateLimits: { loginPerMinute: number; otpPerMinute: number; uploadsPerMinute: number };
  trustProxy: TrustProxy;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  uploads: { dailyFiles: number; dailyBytes: number; totalBytes: number; maxPixels: number };
  push: {
    publicKey: string | undefined;
    privateKey: string | undefined;
    subject: string;
    allowHttpEndpoints: boolean;
  };
  reminders: { intervalSeconds: number; catchUpMinutes: number };
  ocr: {
    workers: number;
    timeoutMs: number;
    maxPages: number;
    maxQueuePerAccount: number;
    maxQueue: number;
    memoryMb: number;
  };
  /** HEIC to JPEG conversion of uploads (services/heic.ts). */
  imageConversion: { processes: number; memoryMb: number };
  /** Unset: files are kept on disk under DATA_DIR/files. */
  s3: S3Config | undefined;
  /** Unset: the built-in test-mode checkout takes the payments (nothing is charged). */
  stripe: StripeConfig | undefined;
  /** Open-Meteo's address, or a compatible service's (no trailing slash). */
  weatherApiUrl: string;
  /** Unset (no FITBIT_CLIENT_ID): the /api/fitbit routes answer 503. */
  fitbit: FitbitConfig | undefined;
};

export { ConfigError };

/** Reads and checks the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Kincare cannot start: invalid configuration\n${lines.join('\n')}`);
  }
  const vars = parsed.data;
  const s3 = s3Config(vars);
  const stripe = stripeConfig(vars);
  const dataDir = resolve(vars.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/$/, '');
  const jwtSecret = vars.JWT_SECRET ?? persistedSecret(dataDir);
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    databaseUrl: vars.DATABASE_URL,
    publicUrl,
    jwtSecret,
    tokenTtlSeconds: vars.TOKEN_TTL_HOURS * 3600,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM,
    logLevel: vars.LOG_LEVEL,
    bodyLimitBytes: vars.BODY_LIMIT_BYTES,
    uploadLimitBytes: vars.UPLOAD_LIMIT_BYTES,
    rateLimits: {
      loginPerMinute: vars.RATE_LIMIT_LOGIN_PER_MINUTE,
      otpPerMinute: vars.RATE_LIMIT_OTP_PER_MINUTE,
      uploadsPerMinute: vars.RATE_LIMIT_UPLOADS_PER_MINUTE,
    },
    trustProxy: vars.TRUST_PROXY,
    redisUrl: vars.REDIS_URL,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    uploads: {
      dailyFiles: vars.UPLOAD_DAILY_FILES,
      dailyBytes: vars.UPLOAD_DAILY_BYTES,
      totalBytes: vars.UPLOAD_TOTAL_BYTES,
      maxPixels: vars.UPLOAD_MAX_PIXELS,
    },
    push: {
      publicKey: vars.VAPID_PUBLIC_KEY,
      privateKey: vars.VAPID_PRIVATE_KEY,
      subject: vars.VAPID_SUBJECT,
      allowHttpEndpoints: vars.PUSH_ALLOW_HTTP_ENDPOINTS === 'true',
    },
    reminders: {
      intervalSeconds: vars.REMINDER_INTERVAL_SECONDS,
      catchUpMinutes: vars.REMINDER_CATCH_UP_MINUTES,
    },
    ocr: {
      workers: vars.OCR_WORKERS,
      timeoutMs: vars.OCR_TIMEOUT_MS,
      maxPages: vars.OCR_MAX_PAGES,
      maxQueuePerAccount: vars.OCR_QUEUE_PER_ACCOUNT,
      maxQueue: vars.OCR_QUEUE_TOTAL,
      memoryMb: vars.DECODE_MEMORY_MB,
    },
    imageConversion: { processes: vars.IMAGE_CONVERTERS, memoryMb: vars.DECODE_MEMORY_MB },
    s3,
    stripe,
    weatherApiUrl: vars.WEATHER_API_URL,
    fitbit: fitbitConfig(vars, publicUrl, jwtSecret),
  };
}

/** The object store's settings, or undefined without S3_BUCKET; settings that need each other are checked here. */
function s3Config(vars: z.infer<typeof envSchema>): S3Config | undefined {
  const problems: string[] = [];
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = vars;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    const missing = accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
    problems.push(`${missing}: give S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY both or neither`);
  }
  if (!vars.S3_BUCKET) {
    // Any other S3_ setting without a bucket is a half-made configuration, not a choice of the disk.
    const strays = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const).filter(
      (name) => vars[name] !== undefined,
    );
    for (const name of strays) problems.push(`${name}: needs S3_BUCKET (files are kept on disk without it)`);
  }
  if (problems.length > 0) {
    throw new ConfigError(
      `Kincare cannot start: invalid configuration\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
  }
  if (!vars.S3_BUCKET) return undefined;
  const prefix = vars.S3_PREFIX ?? '';
  return {
    bucket: vars.S3_BUCKET,
    region: vars.S3_REGION,
    endpoint: vars.S3_ENDPOINT,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  };
}

/**
 * Without JWT_SECRET the server makes one secret and keeps it in DATA_DIR, so sign-ins survive a restart
 * on the one-machine default; several servers behind a load balancer must share JWT_SECRET instead.
 */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < 32) {
      throw new ConfigError(
        `Kincare cannot start: ${file} is damaged (shorter than 32 characters). Delete it to have a new one made (everyone signs in again), or set JWT_SECRET.`,
      );
    }
    return secret;
  }
  // Written whole to a temporary file and renamed into place, so a crash never leaves half a secret,
  // and a second server starting at the same moment either wins the rename or reads the winner's.
  const secret = randomBytes(48).toString('base64url');
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, secret, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch {
    // Another server made it first: use theirs.
  } finally {
    unlinkSync(temporary);
  }
  return readFileSync(file, 'utf8').trim();
}
