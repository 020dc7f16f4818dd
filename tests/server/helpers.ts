import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { loadConfig, type Config } from '../../src/server/config';
import { migratedPglite } from '../fixtures/database-template';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { mailDirFor } from '../../src/server/plugins/mail';

// The real app on a real database: PGlite in memory by default, the Postgres of DATABASE_URL when the
// suite runs with TEST_DATABASE=postgres. One database per test file (PGlite takes seconds to start);
// resetDatabase() empties every table between tests.
//
// Logs are silent unless asked for: `captureLogs` keeps every line the app writes (at 'trace' unless the
// env gives LOG_LEVEL) for the test to read with ctx.logs(); with KINCARE_TEST_LOG_DIR set, every test
// app writes its log to a file there, so tests/server/scan-logs.mjs can look through a whole run.

export type TestContext = {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  dataDir: string;
  /** Every log line the app wrote so far (empty unless started with captureLogs). */
  logs: () => string;
  close: () => Promise<void>;
};

export type TestAppOptions = {
  /** Keep the app's log lines for ctx.logs(). */
  captureLogs?: boolean;
  /** Serve a built PWA from here (default: none, API only). */
  distDir?: string;
  /** A second server on the same database as this one (as behind a load balancer); closing it leaves the database open. */
  sharesDatabaseWith?: TestContext;
};

let logFileCounter = 0;

/** The file this app's log goes to when KINCARE_TEST_LOG_DIR is set, named after the test file. */
function logFileFor(dir: string): string {
  mkdirSync(dir, { recursive: true });
  logFileCounter += 1;
  let testFile = 'app';
  try {
    testFile = basename(expect.getState().testPath ?? 'app').replace(/[^A-Za-z0-9._-]/g, '_');
  } catch {
    // Outside a test's context: the generic name will do.
  }
  return join(dir, `${testFile}-${process.pid}-${logFileCounter}.log`);
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kincare-test-'));
  const usePostgres = process.env.TEST_DATABASE === 'postgres';
  if (usePostgres && !process.env.DATABASE_URL) throw new Error('TEST_DATABASE=postgres needs DATABASE_URL');
  const logDir = process.env.KINCARE_TEST_LOG_DIR;
  const logFile = logDir ? logFileFor(logDir) : undefined;
  const writesLogs = options.captureLogs === true || logFile !== undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: writesLogs ? 'trace' : 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    ...(usePostgres ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const captured: string[] = [];
  const logStream = writesLogs
    ? new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          const text = chunk.toString();
          if (options.captureLogs) captured.push(text);
          if (logFile) appendFileSync(logFile, text);
          done();
        },
      })
    : undefined;
  const shared = options.sharesDatabaseWith?.database;
  const database =
    shared ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: 'memory://',
      pgliteSnapshot: config.databaseUrl ? undefined : await migratedPglite(),
    }));
  const app = await buildApp({
    config,
    db: database.db,
    distDir: options.distDir ?? join(dataDir, 'no-dist'),
    ...(logStream ? { logStream } : {}),
  });
  await app.ready();
  return {
    app,
    config,
    database,
    dataDir,
    logs: () => captured.join(''),
    close: async () => {
      await app.close();
      if (!shared) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A folder holding a minimal built PWA (index.html), for tests of what the server does beside the API. */
export function fakePwaDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kincare-pwa-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kincare</title><div id="root"></div>');
  return dir;
}

/**
 * Empties every table of ours (not the migrations journal), so each test starts from nothing, but the
 * plans offered, which are data the migrations seed (a Stripe price remembered by a test is forgotten).
 *
 * One statement, deleting rows rather than truncating: TRUNCATE makes every table's files anew, which took
 * 210-260 ms a reset on Postgres and 90-200 ms on PGlite, against 2-5 ms and about 30 ms for this block
 * (measured on the tables of an emptied test). The tables are locked first, as TRUNCATE locks them, so a
 * request of the previous test still finishing (an answer is sent before its last write commits) ends
 * before the rows go, and cannot leave a row behind for the next test. No table of ours has an identity
 * column (the one sequence, of record versions, was never restarted between tests either).
 */
export async function resetDatabase(ctx: TestContext): Promise<void> {
  const statement = emptyingStatements.get(ctx.database) ?? (await emptyingStatementOf(ctx));
  // A lingering request can deadlock with the lock on Postgres, which then aborts the block: wait a moment
  // and try again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await ctx.database.db.execute(sql.raw(statement));
      break;
    } catch (error) {
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      if (code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  rmSync(mailDirFor(ctx.dataDir), { recursive: true, force: true });
}

/** Each open database's emptying block, made from its tables once (a test file's tables do not change). */
const emptyingStatements = new WeakMap<DatabaseHandle, string>();

async function emptyingStatementOf(ctx: TestContext): Promise<string> {
  const rows = await queryRows<{ tablename: string }>(
    ctx.database.db,
    sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'plans' order by tablename`,
  );
  const tables = rows.map((row) => `"${row.tablename.replace(/"/g, '""')}"`);
  const statement =
    tables.length === 0
      ? 'update plans set stripe_price_id = null'
      : `do $$ begin lock table ${tables.join(', ')} in access exclusive mode; ` +
        tables.map((table) => `delete from ${table}; `).join('') +
        'update plans set stripe_price_id = null; end $$';
  emptyingStatements.set(ctx.database, statement);
  return statement;
}

/** The messages in the local mailbox (DATA_DIR/mail), oldest first, as raw .eml text. */
export function readMailbox(ctx: TestContext): { to: string; raw: string }[] {
  const dir = mailDirFor(ctx.dataDir);
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(join(dir, file), 'utf8');
    const to = /^To: (.+)$/m.exec(raw)?.[1]?.trim() ?? '';
    return { to, raw };
  });
}

// ---- Accounts, mail and forms for the /auth and file tests ----

/** The mail's text with quoted-printable soft line breaks undone, so links and codes read whole. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '');
}

/** The newest mail to `email`, decoded for reading, or undefined. */
export function lastMailTo(ctx: TestContext, email: string): string | undefined {
  const mails = readMailbox(ctx).filter((mail) => mail.to === email.toLowerCase());
  const last = mails[mails.length - 1];
  return last ? mailText(last.raw) : undefined;
}

export function verificationTokenIn(mail: string | undefined): string {
  const token = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(mail ?? '')?.[1];
  if (!token) throw new Error('no verification link in the mail');
  return token;
}

export function resetCodeIn(mail: string | undefined): string {
  const code = /password is (?:<strong>)?(\d{6})/.exec(mail ?? '')?.[1];
  if (!code) throw new Error('no reset code in the mail');
  return code;
}

export const TEST_PASSWORD = 'correct-horse-1';

export type TestUser = { userId: string; email: string; password: string; token: string; role: string };

let userCounter = 0;

/** Registers through the API, follows the mailed link and signs in: a verified user with a token. */
export async function createUser(
  ctx: TestContext,
  overrides: {
    name?: string;
    email?: string;
    role?: 'Patient' | 'Caregiver';
    zip_code?: string;
    /** Accept the beta policy after signing in, as the app asks first: without it every write is refused. */
    acceptBetaPolicy?: boolean;
    /**
     * The plan a patient chooses when the first sign-in asks for one (as the app's modal does): 'free'
     * unless said; null leaves the patient without a plan, and without a token (`token` is then '').
     */
    plan?: string | null;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const body = {
    name: overrides.name ?? `Test User ${userCounter}`,
    email: overrides.email ?? `user${userCounter}-${Date.now()}@example.com`,
    password: TEST_PASSWORD,
    role: overrides.role ?? 'Patient',
    zip_code: overrides.zip_code ?? '10001',
  };
  const registered = await ctx.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const token = verificationTokenIn(lastMailTo(ctx, body.email));
  const verified = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    payload: { token },
  });
  if (verified.statusCode !== 200) throw new Error(`verify-email failed: ${verified.body}`);
  const signIn = () =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: body.password },
    });
  let login = await signIn();
  if (login.statusCode === 403 && login.json<{ code?: string }>().code === 'SUBSCRIPTION_REQUIRED') {
    const refusal = login.json<{ userId: string; subscribeToken: string }>();
    const plan = overrides.plan === undefined ? 'free' : overrides.plan;
    if (plan === null) {
      return {
        userId: refusal.userId,
        email: body.email.toLowerCase(),
        password: body.password,
        token: '',
        role: body.role,
      };
    }
    const chosen = await ctx.app.inject({
      method: 'POST',
      url: '/api/stripe/subscribe',
      payload: { planId: plan, userId: refusal.userId, subscribeToken: refusal.subscribeToken },
    });
    if (chosen.statusCode !== 200) throw new Error(`subscribe failed: ${chosen.body}`);
    login = await signIn();
  }
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const answer = login.json<{ accessToken: string; userId: string; role: string }>();
  if (overrides.acceptBetaPolicy) await acceptBetaPolicy(ctx, answer.accessToken);
  return {
    userId: answer.userId,
    email: body.email.toLowerCase(),
    password: body.password,
    token: answer.accessToken,
    role: answer.role,
  };
}

/** Accepts the beta policy for the person of `token` (the four acknowledgements of POST /api/auth/beta-policy). */
export async function acceptBetaPolicy(ctx: TestContext, token: string): Promise<void> {
  const accepted = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/beta-policy',
    headers: bearer(token),
    payload: { notHipaa: true, notForMedicalDecisions: true, dataMayBeDeleted: true, agreeToPolicy: true },
  });
  if (accepted.statusCode !== 200) throw new Error(`beta-policy failed: ${accepted.body}`);
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export type FormFile = { field: string; filename: string; contentType: string; bytes: Buffer };

/** A multipart/form-data body for inject(): text fields, then files. */
export function multipartForm(
  fields: Record<string, string>,
  files: FormFile[] = [],
): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----kincare-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
