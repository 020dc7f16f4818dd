import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

// loadConfig(env) on its own: no app, no database. Every test gets its own DATA_DIR in the temp folder,
// because loadConfig creates DATA_DIR and may write the generated JWT secret into it; the repository's
// ./data must never be touched by a test.

const SECRET = 'a-secret-that-is-at-least-32-characters-long';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kincare-config-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The message of the ConfigError that `env` causes; fails the test when loadConfig accepts it. */
function configErrorFor(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...env });
  } catch (error) {
    // Only a ConfigError is printed without a stack trace by main.ts, so any other error is a failure.
    expect(error).toBeInstanceOf(ConfigError);
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  it('gives the documented defaults when only DATA_DIR is set', () => {
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      jwtSecret: SECRET,
      tokenTtlSeconds: 7 * 24 * 3600,
      smtpUrl: undefined,
      mailFrom: 'Kincare <no-reply@kincare.local>',
      logLevel: 'info',
      bodyLimitBytes: 1024 * 1024,
      uploadLimitBytes: 10 * 1024 * 1024,
      rateLimits: { loginPerMinute: 10, otpPerMinute: 5, uploadsPerMinute: 30 },
      trustProxy: false,
      redisUrl: undefined,
      redisKeyPrefix: 'kincare:',
      uploads: {
        dailyFiles: 100,
        dailyBytes: 200 * 1024 * 1024,
        totalBytes: 2 * 1024 * 1024 * 1024,
        maxPixels: 50_000_000,
      },
      push: {
        publicKey: undefined,
        privateKey: undefined,
        subject: 'mailto:no-reply@kincare.local',
        allowHttpEndpoints: false,
      },
      reminders: { intervalSeconds: 30, catchUpMinutes: 120 },
      ocr: {
        workers: 1,
        timeoutMs: 60_000,
        maxPages: 5,
        maxQueuePerAccount: 2,
        maxQueue: 40,
        memoryMb: 1024,
      },
      imageConversion: { processes: 1, memoryMb: 1024 },
      weatherApiUrl: 'https://api.open-meteo.com',
    });
  });

  it('reads TRUST_PROXY as off, on, a hop count or a list of proxy addresses and ranges', () => {
    const trust = (value: string) =>
      loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, TRUST_PROXY: value }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('reads the reminder, push and OCR settings', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      VAPID_SUBJECT: 'https://kincare.example/contact',
      REMINDER_INTERVAL_SECONDS: '0',
      REMINDER_CATCH_UP_MINUTES: '30',
      PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
      OCR_WORKERS: '2',
      OCR_TIMEOUT_MS: '5000',
      OCR_MAX_PAGES: '3',
    });
    expect(config).toMatchObject({
      push: { subject: 'https://kincare.example/contact', allowHttpEndpoints: true },
      reminders: { intervalSeconds: 0, catchUpMinutes: 30 },
      ocr: { workers: 2, timeoutMs: 5000, maxPages: 3 },
    });
  });

  it('reads the Redis and upload quota settings', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      REDIS_KEY_PREFIX: 'clinic-a:',
      UPLOAD_DAILY_FILES: '5',
      UPLOAD_DAILY_BYTES: '1048576',
      UPLOAD_TOTAL_BYTES: '10485760',
      UPLOAD_MAX_PIXELS: '1000000',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '3',
    });
    expect(config).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisKeyPrefix: 'clinic-a:',
      uploads: { dailyFiles: 5, dailyBytes: 1048576, totalBytes: 10485760, maxPixels: 1_000_000 },
      rateLimits: { uploadsPerMinute: 3 },
    });
  });

  it('defaults DATA_DIR to ./data, resolved to an absolute path and created', () => {
    // Run from an empty temp folder so that "./data" lands there and not in the repository.
    const previous = process.cwd();
    process.chdir(dataDir);
    try {
      const config = loadConfig({ JWT_SECRET: SECRET });
      expect(config.dataDir).toBe(join(process.cwd(), 'data'));
      expect(statSync(config.dataDir).isDirectory()).toBe(true);
    } finally {
      process.chdir(previous);
    }
  });

  it('resolves a relative DATA_DIR against the working directory and creates missing folders', () => {
    const nested = join(dataDir, 'a', 'b');
    const config = loadConfig({ DATA_DIR: relative(process.cwd(), nested), JWT_SECRET: SECRET });
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(nested);
    expect(statSync(nested).isDirectory()).toBe(true);
  });

  it('derives PUBLIC_URL from PORT, and drops a trailing slash from an explicit one', () => {
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, PORT: '3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
    const explicit = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      PUBLIC_URL: 'https://kincare.example/',
    });
    expect(explicit.publicUrl).toBe('https://kincare.example');
  });

  it('reads numbers and URLs from their strings', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      PORT: '9000',
      DATABASE_URL: 'postgresql://localhost:5432/test',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      TOKEN_TTL_HOURS: '2',
      LOG_LEVEL: 'warn',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgresql://localhost:5432/test',
      smtpUrl: 'smtps://user:pass@mail.example:465',
      tokenTtlSeconds: 7200,
      logLevel: 'warn',
      bodyLimitBytes: 2048,
    });
  });

  it('treats empty strings as unset, as `VAR= npm start` and compose files produce them', () => {
    const blank = {
      PORT: '',
      HOST: '',
      DATABASE_URL: '',
      PUBLIC_URL: '',
      JWT_SECRET: '',
      TOKEN_TTL_HOURS: '',
      SMTP_URL: '',
      MAIL_FROM: '',
      LOG_LEVEL: '',
      BODY_LIMIT_BYTES: '',
      UPLOAD_LIMIT_BYTES: '',
      RATE_LIMIT_LOGIN_PER_MINUTE: '',
      RATE_LIMIT_OTP_PER_MINUTE: '',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '',
      TRUST_PROXY: '',
      REDIS_URL: '',
      REDIS_KEY_PREFIX: '',
      UPLOAD_DAILY_FILES: '',
      UPLOAD_DAILY_BYTES: '',
      UPLOAD_TOTAL_BYTES: '',
      UPLOAD_MAX_PIXELS: '',
    };
    const fromBlank = loadConfig({ DATA_DIR: dataDir, ...blank });
    const fromNothing = loadConfig({ DATA_DIR: dataDir });
    expect(fromBlank).toEqual(fromNothing);
    expect(fromBlank.port).toBe(8080);
    expect(fromBlank.databaseUrl).toBeUndefined();
    expect(fromBlank.smtpUrl).toBeUndefined();
  });
});

describe('loadConfig refuses a bad variable with a ConfigError naming it', () => {
  // Each case: the variable, its bad value, and words that say what is wrong with it.
  const cases: [name: string, value: string, says: RegExp][] = [
    ['PORT', 'abc', /must be a whole number/],
    ['PORT', '0x50', /must be a whole number/],
    ['PORT', ' ', /must be a whole number/],
    ['UPLOAD_LIMIT_BYTES', '1e7', /must be a whole number/],
    ['PORT', '70000', /65535/],
    ['DATABASE_URL', 'mysql://x', /must start with postgres:\/\/ or postgresql:\/\//],
    ['SMTP_URL', 'http://x', /must start with smtp:\/\/ or smtps:\/\//],
    ['JWT_SECRET', 'too-short', /at least 32 characters/],
    ['LOG_LEVEL', 'loud', /expected one of .*"warn"/],
    ['TOKEN_TTL_HOURS', '0', /must be at least 1$/],
    ['BODY_LIMIT_BYTES', '1', /must be at least 1024$/],
    ['PUBLIC_URL', 'not a url', /Invalid URL/],
    ['TRUST_PROXY', 'yes', /must be true, false, a hop count/],
    ['TRUST_PROXY', '0', /must be true, false, a hop count/],
    ['TRUST_PROXY', '10.0.0.1,proxy.example', /comma list of addresses and CIDRs/],
    ['TRUST_PROXY', '10.0.0.0/33', /comma list of addresses and CIDRs/],
    ['REDIS_URL', 'http://127.0.0.1:6379', /must start with redis:\/\/ or rediss:\/\//],
    ['REDIS_KEY_PREFIX', 'has space', /letters, digits/],
    ['UPLOAD_DAILY_FILES', '0', /must be at least 1$/],
    ['UPLOAD_TOTAL_BYTES', '10', /must be at least 1024$/],
    ['UPLOAD_MAX_PIXELS', 'many', /must be a whole number/],
    ['VAPID_SUBJECT', 'me@example.com', /must be a mailto: or https: address/],
    ['REMINDER_INTERVAL_SECONDS', '-1', /must be a whole number/],
    ['REMINDER_CATCH_UP_MINUTES', '0', /must be at least 1$/],
    ['PUSH_ALLOW_HTTP_ENDPOINTS', 'yes', /expected one of/],
    ['OCR_WORKERS', '0', /must be at least 1$/],
    ['OCR_TIMEOUT_MS', '10', /must be at least 1000$/],
    ['OCR_MAX_PAGES', '1000', /must be at most 100$/],
  ];

  it.each(cases)('%s=%s', (name, value, says) => {
    const message = configErrorFor({ [name]: value });
    expect(message).toMatch(/^Kincare cannot start: invalid configuration$/m);
    const line = message.split('\n').find((text) => text.trim().startsWith(`${name}:`));
    expect(line, `a line for ${name} in:\n${message}`).toBeDefined();
    expect(line).toMatch(says);
    // The message is for a person reading a terminal: one line per variable, no stack, no zod dump.
    expect(message.split('\n')).toHaveLength(2);
  });

  it('lists every bad variable at once, so one restart fixes them all', () => {
    const message = configErrorFor({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      SMTP_URL: 'http://x',
      TOKEN_TTL_HOURS: '0',
    });
    const named = message
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(':')[0]);
    expect(named.sort()).toEqual(['LOG_LEVEL', 'PORT', 'SMTP_URL', 'TOKEN_TTL_HOURS']);
  });

  it('creates nothing in DATA_DIR when the configuration is refused', () => {
    const missing = join(dataDir, 'not-yet');
    expect(() => loadConfig({ DATA_DIR: missing, PORT: 'abc' })).toThrow(ConfigError);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('loadConfig without JWT_SECRET', () => {
  it('generates a secret once, keeps it in DATA_DIR readable by the owner only, and reuses it', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = join(dataDir, 'jwt-secret');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    // Anyone who can read the secret can mint tokens for any account.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
  });

  it('gives each data folder its own secret', () => {
    const other = mkdtempSync(join(tmpdir(), 'kincare-config-'));
    try {
      expect(loadConfig({ DATA_DIR: other }).jwtSecret).not.toBe(loadConfig({ DATA_DIR: dataDir }).jwtSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses a damaged secret file with a message saying what to do, and leaves no temporary file', () => {
    writeFileSync(join(dataDir, 'jwt-secret'), '  \n');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(
      /jwt-secret is damaged .*Delete it .*or set JWT_SECRET/,
    );
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes no secret file when JWT_SECRET is given', () => {
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(false);
  });
});
