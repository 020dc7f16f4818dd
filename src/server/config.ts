import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

// Every setting of the server, read from the environment once at start and checked, so that a typo in
// a variable stops the server with a clear message instead of surfacing as a strange failure later.
// The README lists the same settings; keep the two together.

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(8080)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  ),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(24 * 90).default(24 * 7)),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Kincare <no-reply@kincare.local>')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  BODY_LIMIT_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024).default(1024 * 1024)),
  UPLOAD_LIMIT_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024).default(10 * 1024 * 1024)),
  RATE_LIMIT_LOGIN_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10)),
  RATE_LIMIT_OTP_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(5)),
});

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
  rateLimits: { loginPerMinute: number; otpPerMinute: number };
};

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Kincare cannot start: invalid configuration\n${lines.join('\n')}`);
  }
  const vars = parsed.data;
  const dataDir = resolve(vars.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    databaseUrl: vars.DATABASE_URL,
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/$/, ''),
    jwtSecret: vars.JWT_SECRET ?? persistedSecret(dataDir),
    tokenTtlSeconds: vars.TOKEN_TTL_HOURS * 3600,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM,
    logLevel: vars.LOG_LEVEL,
    bodyLimitBytes: vars.BODY_LIMIT_BYTES,
    uploadLimitBytes: vars.UPLOAD_LIMIT_BYTES,
    rateLimits: { loginPerMinute: vars.RATE_LIMIT_LOGIN_PER_MINUTE, otpPerMinute: vars.RATE_LIMIT_OTP_PER_MINUTE },
  };
}

/**
 * Without JWT_SECRET the server makes one secret and keeps it in DATA_DIR, so sign-ins survive a restart
 * on the one-machine default; several servers behind a load balancer must share JWT_SECRET instead.
 */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
