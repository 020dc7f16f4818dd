// Benchmark: server speed. Kincare (src/server/main.ts, in its own process, at its default log
// level) beside a bare `node:http` + `pg` server written here (the same token check: the JWT verified and
// the session row read with the person; the same indexed queries; the same JSON), on the same fresh
// database, each loaded in turn by autocannon for a fixed time from this process. Then the same on
// PGlite beside bare PGlite queries. Prints requests/s, p50 and p99 of both and their ratio per endpoint,
// with "target 0.8x: met/missed". Exits non-zero only when a run broke (an error, a non-2xx answer, a
// push item not stored, answers of the two servers that differ), never for a missed target.
//
// Environment: BENCH_SERVER_SECONDS (measured seconds per endpoint and server, default 4; PGlite half),
// BENCH_SERVER_CONNECTIONS (default 16), BENCH_SERVER_DATABASES (`postgres,pglite`, the default, or one),
// BENCH_SERVER_CPU_PROF (a folder: Kincare runs with `node --cpu-prof` and writes its profile there),
// BENCH_SERVER_ONLY (only the endpoints whose name holds this text), BENCH_SERVER_PULL_ROWS (the pulled
// patient's appointments, default 2,000), BENCH_SERVER_ADD_RESOURCE=1 (Postgres:
// after the first pass, a second resource's rows for the same patients, then every endpoint again, and
// the two passes compared: the "no endpoint regresses by more than 10% when a resource is added" target).
//
// `tsx tests/bench/server.ts --baseline` is the bare server itself (started as a child by the benchmark).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, pgliteDirFor, type Database } from '../../src/server/db/client';
import { patients, records, sessions, users } from '../../src/server/db/schema';
import { RESOURCE_READ_PERMISSION } from '../../src/domain/permissions';
import { SYNCED_RESOURCES } from '../../src/domain/sync';
import { withBenchDatabase } from './postgres';
import { dataDirWithDatabase } from '../fixtures/database-template';

const SECONDS = Math.min(60, Math.max(1, Number(process.env.BENCH_SERVER_SECONDS ?? 4)));
const CONNECTIONS = Math.min(256, Math.max(1, Number(process.env.BENCH_SERVER_CONNECTIONS ?? 16)));
const DATABASES = (process.env.BENCH_SERVER_DATABASES ?? 'postgres,pglite').split(',');
const CPU_PROFILE_DIR = process.env.BENCH_SERVER_CPU_PROF;
/** Only the endpoints whose name holds this text (to profile one of them). */
const ONLY = process.env.BENCH_SERVER_ONLY;
const TARGET = 0.8;
const ADD_RESOURCE = process.env.BENCH_SERVER_ADD_RESOURCE === '1';
/**
 * The resource BENCH_SERVER_ADD_RESOURCE adds. Its rows are simulated (the measured patients hold only
 * appointments): records of another `resource` value for the same patients, as many as each has
 * appointments, which every read of appointments (list, pull, the push's writes) must pass over by index.
 */
const ADDED_RESOURCE = 'bench_added_resource';
/** At most this much slower (requests/s) with the added resource's rows. */
const ADD_RESOURCE_TARGET = 0.9;
/** PGlite runs one query at a time: more connections only queue (a 2,000-row pull then outlasts a run). */
const PGLITE_CONNECTIONS = 4;
const LIST_SIZE = 50;
/** The puller's appointments (BENCH_SERVER_PULL_ROWS; fewer in the smoke run of npm test). */
const PULL_ROWS = Math.max(1, Number(process.env.BENCH_SERVER_PULL_ROWS ?? 2000));
const PUSH_SIZE = 20;
/** What a device asks for a page (src/local/sync-pull.ts: PULL_PAGE, the largest page the server gives). */
const PULL_PAGE = 10_000;
const JWT_SECRET = 'server-bench-secret-that-is-long-enough-for-hs256';
const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const START_TIMEOUT_MS = 90_000;
/** The version lock of src/server/services/records.ts: the baseline's writes queue behind it too. */
const VERSION_LOCK = 7_406_511;
const READY_LINE = /(?:Kincare|Baseline) is running at (http:\/\/\S+) \(database: (\w+)\)/;

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------
// The bare baseline: node:http + pg (or PGlite), no framework, no ORM, no validation library.
// ---------------------------------------------------------------------------------------------------

type Rows = Json[];
type Query = (text: string, params?: unknown[]) => Promise<Rows>;
type Driver = { query: Query; transaction: <T>(work: (query: Query) => Promise<T>) => Promise<T> };

async function openBareDriver(): Promise<Driver> {
  const url = process.env.BASELINE_DATABASE_URL;
  if (url) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: 10 }); // as many as Kincare's pool
    return {
      query: async (text, params) => (await pool.query<Json>(text, params)).rows,
      transaction: async (work) => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const result = await work(async (text, params) => (await client.query<Json>(text, params)).rows);
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(process.env.BASELINE_PGLITE_DIR);
  return {
    query: async (text, params) => (await db.query<Json>(text, params)).rows,
    transaction: (work) =>
      db.transaction((tx) => work(async (text, params) => (await tx.query<Json>(text, params)).rows)),
  };
}

type Caller = {
  userId: string;
  sessionId: string;
  patientId: string | null;
  caregiverId: string | null;
  betaAccepted: boolean;
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const fromBase64url = (text: string): unknown => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));

/** HS256 checked by hand: signature, algorithm, expiry, and claims that are UUIDs. */
function verifiedClaims(header: string | undefined): { sub: string; sid: string } {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const [head = '', body = '', signature = ''] = token.split('.');
  const expected = createHmac('sha256', JWT_SECRET).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new Refusal(401, 'bad token');
  const alg = (fromBase64url(head) as { alg?: unknown }).alg;
  const claims = fromBase64url(body) as { sub?: unknown; sid?: unknown; exp?: unknown };
  if (alg !== 'HS256' || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now())
    throw new Refusal(401, 'bad token');
  if (
    typeof claims.sub !== 'string' ||
    !UUID.test(claims.sub) ||
    typeof claims.sid !== 'string' ||
    !UUID.test(claims.sid)
  )
    throw new Refusal(401, 'bad token');
  return { sub: claims.sub, sid: claims.sid };
}

/** The session check of every request: the token's session, live, with its person (one query). */
async function authenticate(db: Driver, request: IncomingMessage): Promise<Caller> {
  const { sub, sid } = verifiedClaims(request.headers.authorization);
  const [row] = await db.query(
    `select u.id, p.id as patient_id, c.id as caregiver_id, s.last_seen_at, u.beta_policy_accepted_at
       from sessions s join users u on u.id = s.user_id
       left join patients p on p.user_id = u.id left join caregivers c on c.user_id = u.id
      where s.id = $1 and s.user_id = $2 and s.ended_at is null and s.expires_at > now() limit 1`,
    [sid, sub],
  );
  if (!row) throw new Refusal(401, 'session ended');
  if (Date.now() - (row.last_seen_at as Date).getTime() >= 60_000)
    await db.query(
      `update sessions set last_seen_at = now() where id = $1 and last_seen_at < now() - interval '1 minute'`,
      [sid],
    );
  return {
    userId: sub,
    sessionId: sid,
    patientId: row.patient_id as string | null,
    caregiverId: row.caregiver_id as string | null,
    betaAccepted: row.beta_policy_accepted_at !== null,
  };
}

async function mayRead(db: Driver, caller: Caller, patientId: string): Promise<boolean> {
  if (caller.patientId === patientId) return true;
  if (!caller.caregiverId) return false;
  const [link] = await db.query(
    `select permissions from care_links where caregiver_id = $1 and patient_id = $2`,
    [caller.caregiverId, patientId],
  );
  return Boolean(link && (link.permissions as string[]).includes('ReadAppointment'));
}

const RECORD_COLUMNS = `id, resource, patient_id, version::float8 as version, data, deleted_at, created_at, updated_at`;
const wire = (row: Json): Json => ({
  ...(row.data as Json),
  id: row.id,
  patient_id: row.patient_id,
  version: row.version,
  created_at: (row.created_at as Date).toISOString(),
  updated_at: (row.updated_at as Date).toISOString(),
});

async function listAppointments(db: Driver, caller: Caller, url: URL): Promise<Json> {
  const patientId = url.searchParams.get('patient') ?? caller.patientId;
  if (!patientId || !UUID.test(patientId)) throw new Refusal(400, 'patient');
  if (!(await mayRead(db, caller, patientId))) throw new Refusal(403, 'not allowed');
  const rows = await db.query(
    `select ${RECORD_COLUMNS} from records where resource = 'appointments' and patient_id = $1 and deleted_at is null
      order by data->>'appointment_date'`,
    [patientId],
  );
  return { success: true, data: rows.map(wire) };
}

async function oneAppointment(db: Driver, caller: Caller, id: string): Promise<Json> {
  if (!UUID.test(id)) throw new Refusal(400, 'id');
  const [row] = await db.query(
    `select ${RECORD_COLUMNS} from records where id = $1 and resource = 'appointments' limit 1`,
    [id],
  );
  if (!row || row.deleted_at || !(await mayRead(db, caller, row.patient_id as string)))
    throw new Refusal(404, 'not found');
  return { success: true, data: wire(row), merged: false };
}

/** The pull: the page, the newest version and the tombstone horizon, in one statement (one snapshot). */
async function pull(db: Driver, caller: Caller, url: URL): Promise<Json> {
  const cursor = Number(url.searchParams.get('cursor') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 500);
  if (!Number.isInteger(cursor) || cursor < 0 || !Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new Refusal(400, 'cursor or limit');
  // Per synced resource, the patients whose rows the caller may see: their own, and each linked patient
  // who granted that resource's Read permission. The scope names them all, as the server's does.
  const visible = new Map<string, string[]>(
    SYNCED_RESOURCES.map((resource) => [resource, caller.patientId ? [caller.patientId] : []]),
  );
  if (caller.caregiverId) {
    const links = await db.query(`select patient_id, permissions from care_links where caregiver_id = $1`, [
      caller.caregiverId,
    ]);
    for (const link of links)
      for (const resource of SYNCED_RESOURCES)
        if ((link.permissions as string[]).includes(RESOURCE_READ_PERMISSION[resource]))
          visible.get(resource)?.push(link.patient_id as string);
  }
  const scope = createHash('sha256')
    .update(
      SYNCED_RESOURCES.map(
        (resource) => `${resource}:${[...(visible.get(resource) ?? [])].sort().join(',')}`,
      ).join(';'),
    )
    .digest('base64url')
    .slice(0, 22);
  const shown = [...visible].filter(([, ids]) => ids.length > 0);
  const asked = url.searchParams.get('scope');
  // One condition per resource the caller sees: (resource = $r and patient_id in (...)).
  const values: string[] = [];
  const visibleRows = shown
    .map(([resource, ids]) => {
      values.push(resource, ...ids);
      const first = values.length - ids.length + 2; // $1 and $2 are the cursor and the limit
      const marks = ids.map((_, index) => `$${first + index + 1}`).join(', ');
      return `(resource = $${first} and patient_id in (${marks}))`;
    })
    .join(' or ');
  const page = async (from: number) => {
    if (shown.length === 0) return { rows: [] as Json[], horizon: 0, newest: 0 };
    const rows = await db.query(
      `with page as (select ${RECORD_COLUMNS} from records
          where (${visibleRows}) and version > $1 order by version limit $2)
       select page.*, meta.horizon, meta.newest from
         (select (select value::float8 from sync_meta where key = 'tombstone_horizon') as horizon,
                 (select max(version)::float8 from records) as newest) as meta
         left join page on true order by page.version`,
      [from, limit + 1, ...values],
    );
    const first = rows[0];
    return {
      rows: rows.filter((row) => row.id !== null),
      horizon: (first?.horizon as number | null) ?? 0,
      newest: (first?.newest as number | null) ?? 0,
    };
  };
  let got = await page(cursor);
  const reset = cursor > 0 && (cursor < got.horizon || (asked !== null && asked !== scope));
  if (reset) got = await page(0);
  const from = reset ? 0 : cursor;
  const rows = got.rows.slice(0, limit);
  const more = got.rows.length > limit;
  const changes = rows.map((row) => ({
    resource: row.resource,
    id: row.id,
    version: row.version,
    deleted: row.deleted_at !== null,
    data: row.deleted_at ? null : wire(row),
  }));
  const last = (rows.at(-1)?.version as number | undefined) ?? from;
  if (more) {
    const token = Buffer.from(JSON.stringify({ position: last, start: from, scope })).toString('base64url');
    return { changes, cursor: last, more, reset, scope, token };
  }
  return { changes, cursor: Math.max(last, got.newest, got.horizon), more, reset, scope };
}

const KEY = /^[A-Za-z0-9_-]{8,100}$/;
const text = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;

/**
 * The push, for creates of appointments (what the benchmark sends): the same transaction as Kincare's
 * (claim the keys, take the version lock, write, store the answers), each step one statement for the batch.
 */
async function push(db: Driver, caller: Caller, body: unknown): Promise<Json> {
  const changes = (body as { changes?: unknown }).changes;
  if (!Array.isArray(changes) || changes.length < 1 || changes.length > 200)
    throw new Refusal(400, 'changes');
  const items = changes.map((change: Json) => {
    const payload = (change.payload ?? {}) as Json;
    const { patient_id, ...fields } = payload;
    const valid =
      typeof change.idempotency_key === 'string' &&
      KEY.test(change.idempotency_key) &&
      change.resource === 'appointments' &&
      change.op === 'create' &&
      typeof change.id === 'string' &&
      UUID.test(change.id) &&
      typeof patient_id === 'string' &&
      text(fields.appointment_title, 200) &&
      text(fields.appointment_date, 100) &&
      !Number.isNaN(Date.parse(fields.appointment_date as string)) &&
      text(fields.location ?? '', 200) &&
      text(fields.notes ?? '', 2000);
    if (!valid) throw new Refusal(400, 'change');
    const { changed_at: _changedAt, ...stored } = fields;
    const data = {
      doctor_id: null,
      location: '',
      notes: '',
      status: 'scheduled',
      attachment_key: null,
      // The appointment's own time zone (none: the patient's), as Kincare defaults it.
      time_zone: null,
      ...stored,
      caregiver_id: null,
    };
    const fingerprint = createHash('sha256')
      .update(`POST /api/appointments ${JSON.stringify({ id: change.id, patient_id, ...data })}`)
      .digest('base64url');
    return {
      key: change.idempotency_key as string,
      id: change.id as string,
      patientId: patient_id,
      data,
      fingerprint,
    };
  });
  if (!caller.betaAccepted) throw new Refusal(403, 'beta policy');
  for (const item of items) if (item.patientId !== caller.patientId) throw new Refusal(403, 'not allowed');
  const now = Date.now();
  return db.transaction(async (query) => {
    const claimed = await query(
      `insert into idempotency_keys (user_id, key, fingerprint, status_code, body)
       values ${items.map((_, index) => `($1, $${index * 2 + 2}, $${index * 2 + 3}, 0, '{}')`).join(', ')}
       on conflict do nothing returning key`,
      [caller.userId, ...items.flatMap((item) => [item.key, item.fingerprint])],
    );
    const open = new Set(claimed.map((row) => row.key as string));
    const toWrite = items.filter((item) => open.has(item.key));
    const written = new Map<string, Json>();
    if (toWrite.length > 0) {
      await query(`select pg_advisory_xact_lock(${VERSION_LOCK})`);
      const inserted = await query(
        `insert into records (id, resource, patient_id, version, data, field_changed_at, created_by)
         values ${toWrite.map((_, index) => `($${index * 4 + 2}, 'appointments', $${index * 4 + 3}, nextval('change_version_seq'), $${index * 4 + 4}, $${index * 4 + 5}, $1)`).join(', ')}
         on conflict do nothing returning ${RECORD_COLUMNS}`,
        [
          caller.userId,
          ...toWrite.flatMap((item) => [
            item.id,
            item.patientId,
            JSON.stringify(item.data),
            JSON.stringify(Object.fromEntries(Object.keys(item.data).map((field) => [field, now]))),
          ]),
        ],
      );
      for (const row of inserted) written.set(row.id as string, wire(row));
    }
    const results = items.map((item) => {
      const data = written.get(item.id);
      return data
        ? { idempotency_key: item.key, status: 201, body: { success: true, data, merged: false } }
        : { idempotency_key: item.key, status: 0, body: { message: 'Not tried; send it again.' } };
    });
    const answered = results.filter((result) => result.status === 201);
    if (answered.length > 0)
      await query(
        `update idempotency_keys as stored set status_code = 201, body = answer.body::jsonb, patient_id = $2, permission = 'AddAppointment'
           from (values ${answered.map((_, index) => `($${index * 2 + 3}, $${index * 2 + 4})`).join(', ')}) as answer(key, body)
          where stored.user_id = $1 and stored.key = answer.key`,
        [
          caller.userId,
          caller.patientId,
          ...answered.flatMap((result) => [result.idempotency_key, JSON.stringify(result.body)]),
        ],
      );
    return { results };
  });
}

async function profile(db: Driver, caller: Caller): Promise<Json> {
  const [row] = await db.query(
    `select u.id, u.name, u.role, u.email, u.zip_code, u.email_verified_at, u.birth_date, u.gender, u.race, u.ethnicity,
            u.phone, u.address, u.city, u.state, u.photo_key, u.stripe_customer_id, u.beta_policy_accepted_at,
            p.id as patient_id, c.id as caregiver_id
       from users u left join patients p on p.user_id = u.id left join caregivers c on c.user_id = u.id
      where u.id = $1 limit 1`,
    [caller.userId],
  );
  if (!row) throw new Refusal(401, 'session ended');
  const birth = row.birth_date as string | null;
  return {
    success: true,
    data: {
      id: row.id,
      name: row.name,
      role: row.role,
      email: row.email,
      zip_code: row.zip_code,
      patient_id: row.patient_id,
      caregiver_id: row.caregiver_id,
      stripe_customer_id: row.stripe_customer_id,
      email_verified: row.email_verified_at !== null,
      birth_date: birth,
      age: birth ? Math.floor((Date.now() - Date.parse(birth)) / (365.25 * 86_400_000)) : null,
      gender: row.gender,
      race: row.race,
      ethnicity: row.ethnicity,
      phone: row.phone,
      address: row.address,
      city: row.city,
      state: row.state,
      photo_url: null, // the benchmark's people have no photo (Kincare would sign a link to it)
      beta_policy_accepted_at: (row.beta_policy_accepted_at as Date | null)?.toISOString() ?? null,
    },
  };
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_048_576) reject(new Refusal(413, 'too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Refusal(400, 'not JSON'));
      }
    });
    request.on('error', reject);
  });
}

async function runBaseline(): Promise<void> {
  const db = await openBareDriver();
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    const payload = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(payload),
      'cache-control': 'no-store',
    });
    response.end(payload);
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://baseline');
    const route = async (): Promise<Json> => {
      const caller = await authenticate(db, request);
      const { pathname } = url;
      if (request.method === 'GET' && pathname === '/api/appointments')
        return listAppointments(db, caller, url);
      if (request.method === 'GET' && pathname.startsWith('/api/appointments/'))
        return oneAppointment(db, caller, pathname.slice('/api/appointments/'.length));
      if (request.method === 'GET' && pathname === '/api/sync/pull') return pull(db, caller, url);
      if (request.method === 'POST' && pathname === '/api/sync/push')
        return push(db, caller, await readBody(request));
      if (request.method === 'GET' && pathname === '/api/auth/profile') return profile(db, caller);
      throw new Refusal(404, 'Not found');
    };
    route().then(
      (body) => answer(response, 200, body),
      (error: unknown) => {
        if (error instanceof Refusal) answer(response, error.status, { message: error.message });
        else {
          console.error(error);
          answer(response, 500, { message: 'Something went wrong' });
        }
      },
    );
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(
      `Baseline is running at http://127.0.0.1:${port} (database: ${process.env.BASELINE_DATABASE_URL ? 'postgres' : 'pglite'})`,
    );
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------
// The benchmark.
// ---------------------------------------------------------------------------------------------------

/** A server in its own process, its output in a file (so a busy log costs this process nothing). */
class Child {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
    readonly logFile: string,
    private readonly exited: Promise<void>,
  ) {}

  static async start(
    title: string,
    args: string[],
    env: Record<string, string>,
    logDir: string,
  ): Promise<Child> {
    const logFile = join(logDir, `${title}-${Date.now()}.log`);
    const output = openSync(logFile, 'a');
    const child = spawn(process.execPath, args, {
      cwd: REPOSITORY,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TMPDIR: process.env.TMPDIR ?? tmpdir(),
        ...env,
      },
      stdio: ['ignore', output, output],
    });
    closeSync(output);
    let exitedEarly = false;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exitedEarly = true;
        resolve();
      }),
    );
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const log = readFileSync(logFile, 'utf8');
      const match = READY_LINE.exec(log);
      if (match?.[1]) return new Child(child, match[1].replace('localhost', '127.0.0.1'), logFile, exited);
      if (exitedEarly || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${title} did not start:\n${log.slice(-3000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM (Kincare's graceful stop, which also writes a CPU profile), then the lines logged as errors. */
  async stop(): Promise<string[]> {
    this.child.kill('SIGTERM');
    await this.exited;
    return readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line) || /^\s*at |Error/.test(line))
      .slice(0, 10);
  }
}

function signToken(userId: string, sessionId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: Json) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: userId, sid: sessionId, iat: now, exp: now + 86_400 })}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

type Person = { userId: string; patientId: string; token: string };
type People = { reader: Person; puller: Person; pusher: Person; appointmentId: string };

let visitNumber = 0;
function visit(patientId: string): Json {
  visitNumber++;
  return {
    patient_id: patientId,
    caregiver_id: null,
    appointment_title: `Visit ${visitNumber}`,
    appointment_date: new Date(Date.UTC(2027, 0, 1, 9) + visitNumber * 1_800_000).toISOString(),
    doctor_id: null,
    location: `Clinic ${visitNumber % 40}`,
    notes: 'Bring the list of medicines',
    status: 'scheduled',
    attachment_key: null,
  };
}

/** Three patients straight into the database: one with 50 appointments, one with 2,000, one who pushes. */
async function seed(options: { databaseUrl?: string; pgliteDir?: string }): Promise<People> {
  const handle = await openDatabase(options);
  try {
    const { db } = handle;
    const person = async (name: string): Promise<Person> => {
      const [user] = await db
        .insert(users)
        .values({
          email: `${name}-${randomUUID()}@example.com`,
          name: `Bench ${name}`,
          passwordHash: 'not-used',
          role: 'Patient',
          zipCode: '10001',
          emailVerifiedAt: new Date(),
          betaPolicyAcceptedAt: new Date(),
        })
        .returning({ id: users.id });
      if (!user) throw new Error('no user');
      const [patient] = await db.insert(patients).values({ userId: user.id }).returning({ id: patients.id });
      const [session] = await db
        .insert(sessions)
        .values({ userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) })
        .returning({ id: sessions.id });
      if (!patient || !session) throw new Error('no patient or session');
      return { userId: user.id, patientId: patient.id, token: signToken(user.id, session.id) };
    };
    const reader = await person('reader');
    const puller = await person('puller');
    const pusher = await person('pusher');
    const appointments = (owner: Person, count: number) => insertRecords(db, 'appointments', owner, count);
    await appointments(reader, LIST_SIZE);
    await appointments(puller, PULL_ROWS);
    const [first] = await db
      .select({ id: records.id })
      .from(records)
      .where(eq(records.patientId, reader.patientId))
      .limit(1);
    return { reader, puller, pusher, appointmentId: first?.id ?? '' };
  } finally {
    await handle.close();
  }
}

/** `count` records of `resource` for `owner`'s patient, each with an appointment's fields as its data. */
async function insertRecords(db: Database, resource: string, owner: Person, count: number): Promise<void> {
  for (let offset = 0; offset < count; offset += 500) {
    const rows = Array.from({ length: Math.min(500, count - offset) }, () => {
      const data = visit(owner.patientId);
      const { patient_id: _patient, ...fields } = data;
      return {
        id: randomUUID(),
        resource,
        patientId: owner.patientId,
        version: sql`nextval('change_version_seq')`,
        data: fields,
        fieldChangedAt: Object.fromEntries(Object.keys(fields).map((field) => [field, Date.now()])),
        createdBy: owner.userId,
      };
    });
    await db.insert(records).values(rows);
  }
}

/** The added resource's rows: as many per patient as it has appointments (the pusher: a push's worth). */
async function addResource(databaseUrl: string, people: People): Promise<void> {
  const handle = await openDatabase({ databaseUrl });
  try {
    await insertRecords(handle.db, ADDED_RESOURCE, people.reader, LIST_SIZE);
    await insertRecords(handle.db, ADDED_RESOURCE, people.puller, PULL_ROWS);
    await insertRecords(handle.db, ADDED_RESOURCE, people.pusher, PUSH_SIZE);
    await handle.db.execute(sql`analyze records`);
  } finally {
    await handle.close();
  }
}

type Endpoint = {
  name: string;
  person: Person;
  method: 'GET' | 'POST';
  path: string;
  /** A fresh body for every request (new ids and Idempotency-Keys for every push). */
  body?: () => string;
  /** Why an answer is wrong (beyond its status), or null. */
  check?: (body: string) => string | null;
};

function pushBody(pusher: Person): string {
  return JSON.stringify({
    changes: Array.from({ length: PUSH_SIZE }, () => {
      const {
        patient_id,
        caregiver_id: _caregiver,
        attachment_key: _attachment,
        ...fields
      } = visit(pusher.patientId);
      return {
        idempotency_key: randomUUID(),
        resource: 'appointments',
        op: 'create',
        id: randomUUID(),
        payload: { patient_id, ...fields, changed_at: Date.now() },
      };
    }),
  });
}

function checkPush(body: string): string | null {
  const results = (JSON.parse(body) as { results?: { status: number }[] }).results;
  if (results?.length !== PUSH_SIZE) return `a push answered ${results?.length} results`;
  const refused = results.find((result) => result.status !== 201);
  return refused ? `a pushed item answered ${refused.status}` : null;
}

function endpoints(people: People, head: { cursor: number; scope: string }): Endpoint[] {
  const { reader, puller, pusher } = people;
  const all: Endpoint[] = [
    {
      name: 'GET /api/appointments?patient= (50)',
      person: reader,
      method: 'GET',
      path: `/api/appointments?patient=${reader.patientId}`,
    },
    {
      name: 'GET /api/appointments/:id',
      person: reader,
      method: 'GET',
      path: `/api/appointments/${people.appointmentId}`,
    },
    {
      name: 'GET /api/sync/pull at the head',
      person: reader,
      method: 'GET',
      path: `/api/sync/pull?cursor=${head.cursor}&scope=${head.scope}&limit=${PULL_PAGE}`,
    },
    {
      name: `GET /api/sync/pull from 0 (${PULL_ROWS})`,
      person: puller,
      method: 'GET',
      path: `/api/sync/pull?cursor=0&limit=${PULL_PAGE}`,
    },
    {
      name: `POST /api/sync/push (${PUSH_SIZE} creates)`,
      person: pusher,
      method: 'POST',
      path: '/api/sync/push',
      body: () => pushBody(pusher),
      check: checkPush,
    },
    { name: 'GET /api/auth/profile', person: reader, method: 'GET', path: '/api/auth/profile' },
  ];
  return ONLY ? all.filter((endpoint) => endpoint.name.includes(ONLY)) : all;
}

async function call(origin: string, endpoint: Endpoint): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${endpoint.path}`, {
    method: endpoint.method,
    headers: { authorization: `Bearer ${endpoint.person.token}`, 'content-type': 'application/json' },
    ...(endpoint.body ? { body: endpoint.body() } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The same structure with every leaf replaced by its type: two pushes store different rows. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shapeOf(field)]));
  return value === null ? null : typeof value;
}

type Figures = { requestsPerSecond: number; p50: number; p99: number; requests: number; failures: string[] };

async function load(
  origin: string,
  endpoint: Endpoint,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Figures> {
  const failures: string[] = [];
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${endpoint.person.token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: endpoint.method,
        path: endpoint.path,
        ...(endpoint.body
          ? { setupRequest: (request) => ({ ...request, body: endpoint.body?.() ?? '' }) }
          : {}),
        ...(endpoint.check
          ? {
              onResponse: (status: number, body: string) => {
                const wrong = status < 300 ? endpoint.check?.(body) : null;
                if (wrong && failures.length < 5) failures.push(wrong);
              },
            }
          : {}),
      },
    ],
  });
  if (result.non2xx > 0) failures.push(`${result.non2xx} answers were not 2xx`);
  if (result.errors > 0 || result.timeouts > 0)
    failures.push(`${result.errors} errors, ${result.timeouts} timeouts`);
  return {
    requestsPerSecond: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures,
  };
}

let broken = 0;
function fail(message: string): void {
  broken++;
  console.log(`  ERROR: ${message}`);
}

const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number, digits = 0) => value.toFixed(digits).padStart(7);

/** One endpoint's line; no ratio when a server finished no request (a machine far too loaded). */
function printLine(name: string, kincare: Figures, bare: Figures): void {
  const figures = (side: Figures) => `${num(side.requestsPerSecond)} ${num(side.p50)} ${num(side.p99)}`;
  // Kincare answering nothing in a whole stretch is a broken server, not a slow one.
  if (kincare.requests === 0) fail(`${name}: Kincare finished no request`);
  const ratio = kincare.requestsPerSecond / bare.requestsPerSecond;
  const verdict =
    kincare.requests === 0 || bare.requests === 0
      ? 'no ratio: a server finished no request in the run'
      : `${ratio.toFixed(2)}x  target ${TARGET}x: ${ratio >= TARGET ? 'met' : 'missed'}`;
  console.log(`  ${pad(name, 40)} ${figures(kincare)}        ${figures(bare)}     ${verdict}`);
}

/**
 * Compares the two servers' answers once (same data for reads, same shape for a push), then loads each
 * endpoint on one server and the other in turn, and prints a line per endpoint.
 */
async function measure(
  title: string,
  kincare: () => Promise<string>,
  baseline: () => Promise<string>,
  list: Endpoint[],
  seconds: number,
): Promise<Map<string, { kincare: Figures; bare: Figures }>> {
  const measured = new Map<string, { kincare: Figures; bare: Figures }>();
  console.log(`\n${title}: ${CONNECTIONS} connections, ${seconds} s per endpoint and server after a warm-up`);
  console.log(
    `  ${pad('endpoint', 40)} ${pad('Kincare req/s  p50  p99 ms', 28)} ${pad('bare req/s  p50  p99 ms', 28)} ratio`,
  );
  for (const endpoint of list) {
    const kincareOrigin = await kincare();
    const baselineOrigin = await baseline();
    const ours = await call(kincareOrigin, endpoint);
    const bare = await call(baselineOrigin, endpoint);
    if (ours.status !== 200 && ours.status !== 201)
      fail(`${endpoint.name}: Kincare answered ${ours.status}: ${JSON.stringify(ours.body).slice(0, 300)}`);
    if (bare.status !== 200)
      fail(
        `${endpoint.name}: the baseline answered ${bare.status}: ${JSON.stringify(bare.body).slice(0, 300)}`,
      );
    const same = endpoint.body
      ? isDeepStrictEqual(shapeOf(ours.body), shapeOf(bare.body))
      : isDeepStrictEqual(ours.body, bare.body);
    if (!same)
      fail(
        `${endpoint.name}: the answers differ:\n    Kincare  ${JSON.stringify(ours.body).slice(0, 400)}\n    baseline ${JSON.stringify(bare.body).slice(0, 400)}`,
      );
    const warmUp = Math.max(1, Math.round(seconds / 4));
    await load(kincareOrigin, endpoint, warmUp);
    const k = await load(kincareOrigin, endpoint, seconds);
    await load(baselineOrigin, endpoint, warmUp);
    const b = await load(baselineOrigin, endpoint, seconds);
    printLine(endpoint.name, k, b);
    measured.set(endpoint.name, { kincare: k, bare: b });
    for (const failure of k.failures) fail(`${endpoint.name}, Kincare: ${failure}`);
    for (const failure of b.failures) fail(`${endpoint.name}, baseline: ${failure}`);
  }
  return measured;
}

/**
 * Each endpoint's figures with the added resource over those without: Kincare's requests/s, and (since a
 * loaded machine moves both servers) Kincare's ratio to the bare server, which cancels what moved both.
 */
function printAddedResource(
  before: Map<string, { kincare: Figures; bare: Figures }>,
  after: Map<string, { kincare: Figures; bare: Figures }>,
): void {
  console.log(
    `\nWith a second resource's rows (\`${ADDED_RESOURCE}\`, simulated: no route serves it and a pull's scope does not name it; its rows sit in the records table for the same patients, as many as their appointments) over without; target ${ADD_RESOURCE_TARGET}:`,
  );
  console.log(`  ${pad('endpoint', 40)} ${pad('Kincare req/s', 20)} ${pad('Kincare/bare ratio', 20)}`);
  for (const [name, without] of before) {
    const withIt = after.get(name);
    if (!withIt) continue;
    if ([without, withIt].some((side) => side.kincare.requests === 0 || side.bare.requests === 0)) {
      console.log(`  ${pad(name, 40)} no ratio: a server finished no request in a pass`);
      continue;
    }
    const ratioOf = (side: { kincare: Figures; bare: Figures }) =>
      side.kincare.requestsPerSecond / side.bare.requestsPerSecond;
    const speed = withIt.kincare.requestsPerSecond / without.kincare.requestsPerSecond;
    const relative = ratioOf(withIt) / ratioOf(without);
    const verdict = (value: number) => (value >= ADD_RESOURCE_TARGET ? 'met' : 'missed');
    console.log(
      `  ${pad(name, 40)} ${pad(`${speed.toFixed(2)}x ${verdict(speed)}`, 20)} ${pad(`${relative.toFixed(2)}x ${verdict(relative)}`, 20)}`,
    );
  }
}

function kincareArgs(): string[] {
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [];
  return [...profile, '--import', 'tsx', 'src/server/main.ts'];
}
const BASELINE_ARGS = ['--import', 'tsx', 'tests/bench/server.ts', '--baseline'];

async function headOf(origin: string, person: Person): Promise<{ cursor: number; scope: string }> {
  const answer = await call(origin, {
    name: 'head',
    person,
    method: 'GET',
    path: `/api/sync/pull?cursor=0&limit=${PULL_PAGE}`,
  });
  const body = answer.body as { cursor?: number; scope?: string };
  if (answer.status !== 200 || body.cursor === undefined || !body.scope)
    throw new Error(`the first pull answered ${answer.status}`);
  return { cursor: body.cursor, scope: body.scope };
}

async function postgresRun(logDir: string): Promise<void> {
  await withBenchDatabase('kincare_bench_server', async (databaseUrl) => {
    const people = await seed({ databaseUrl });
    const dataDir = mkdtempSync(join(tmpdir(), 'kincare-bench-server-'));
    // Both servers run at once (Postgres takes many processes); each is loaded while the other idles.
    const kincare = await Child.start(
      'kincare-postgres',
      kincareArgs(),
      { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, JWT_SECRET, PORT: '0', HOST: '127.0.0.1' },
      logDir,
    );
    const baseline = await Child.start(
      'baseline-postgres',
      BASELINE_ARGS,
      { BASELINE_DATABASE_URL: databaseUrl },
      logDir,
    );
    try {
      if (ADD_RESOURCE) {
        // The pass after the rows are added runs on warmer servers (JIT, caches); a first pass here warms
        // both up, so that the two compared passes differ in the rows only.
        await measure(
          'Postgres, a warm-up pass (not compared)',
          async () => kincare.origin,
          async () => baseline.origin,
          endpoints(people, await headOf(kincare.origin, people.reader)),
          SECONDS,
        );
      }
      const head = await headOf(kincare.origin, people.reader);
      const before = await measure(
        'Postgres (Kincare at its default log level, info)',
        async () => kincare.origin,
        async () => baseline.origin,
        endpoints(people, head),
        SECONDS,
      );
      if (ADD_RESOURCE) {
        await addResource(databaseUrl, people);
        // The head moved with the pushes of the first pass; a pull at the head starts from the new one.
        const headNow = await headOf(kincare.origin, people.reader);
        const after = await measure(
          `Postgres again, with a second resource's rows (${ADDED_RESOURCE})`,
          async () => kincare.origin,
          async () => baseline.origin,
          endpoints(people, headNow),
          SECONDS,
        );
        printAddedResource(before, after);
      }
    } finally {
      for (const [name, child] of [
        ['Kincare', kincare],
        ['baseline', baseline],
      ] as const) {
        const errors = await child.stop();
        if (errors.length > 0) fail(`${name} logged errors:\n${errors.join('\n')}`);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/** PGlite is one process's database: Kincare runs every endpoint, then the baseline on the same files. */
async function pgliteRun(logDir: string): Promise<void> {
  const seconds = Math.max(1, Math.round(SECONDS / 2));
  const dataDir = await dataDirWithDatabase(mkdtempSync(join(tmpdir(), 'kincare-bench-server-')));
  try {
    const people = await seed({ pgliteDir: pgliteDirFor(dataDir) });
    let kincare: Child | null = null;
    let baseline: Child | null = null;
    const stopAll = async () => {
      for (const [name, child] of [
        ['Kincare', kincare],
        ['baseline', baseline],
      ] as const) {
        const errors = (await child?.stop()) ?? [];
        if (errors.length > 0) fail(`${name} logged errors:\n${errors.join('\n')}`);
      }
      kincare = null;
      baseline = null;
    };
    const startKincare = async () => {
      if (kincare) return kincare.origin;
      await stopAll();
      kincare = await Child.start(
        'kincare-pglite',
        ['--import', 'tsx', 'src/server/main.ts'],
        { DATA_DIR: dataDir, JWT_SECRET, PORT: '0', HOST: '127.0.0.1' },
        logDir,
      );
      return kincare.origin;
    };
    const startBaseline = async () => {
      if (baseline) return baseline.origin;
      await stopAll();
      baseline = await Child.start(
        'baseline-pglite',
        BASELINE_ARGS,
        { BASELINE_PGLITE_DIR: pgliteDirFor(dataDir) },
        logDir,
      );
      return baseline.origin;
    };
    try {
      const head = await headOf(await startKincare(), people.reader);
      // One server at a time: the answers are compared through a restart, and each endpoint costs two.
      await measurePglite(startKincare, startBaseline, endpoints(people, head), seconds);
    } finally {
      await stopAll();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** On PGlite, every endpoint on Kincare, then every endpoint on the baseline (each restart costs seconds). */
async function measurePglite(
  kincare: () => Promise<string>,
  baseline: () => Promise<string>,
  list: Endpoint[],
  seconds: number,
): Promise<void> {
  console.log(
    `\nPGlite (one process holds the database, so Kincare runs every endpoint, then the baseline; PGlite answers one query at a time, so ${PGLITE_CONNECTIONS} connections, ${seconds} s per endpoint and server after a warm-up; the 0.8x target is Postgres's):`,
  );
  const warmUp = 1;
  const answers: { status: number; body: unknown }[] = [];
  const ours: Figures[] = [];
  let origin = await kincare();
  for (const endpoint of list) {
    answers.push(await call(origin, endpoint));
    await load(origin, endpoint, warmUp, PGLITE_CONNECTIONS);
    ours.push(await load(origin, endpoint, seconds, PGLITE_CONNECTIONS));
  }
  origin = await baseline();
  console.log(
    `  ${pad('endpoint', 40)} ${pad('Kincare req/s  p50  p99 ms', 28)} ${pad('bare req/s  p50  p99 ms', 28)} ratio`,
  );
  for (const [index, endpoint] of list.entries()) {
    const bare = await call(origin, endpoint);
    const mine = answers[index];
    const k = ours[index];
    if (!mine || !k) continue;
    if (mine.status !== 200 || bare.status !== 200)
      fail(`${endpoint.name}: answered ${mine.status} (Kincare), ${bare.status} (baseline)`);
    // Pushes made meanwhile moved the head: compare the shape of pulls and pushes, the data of the rest.
    const exact = !endpoint.body && !endpoint.path.startsWith('/api/sync/pull');
    const same = exact
      ? isDeepStrictEqual(mine.body, bare.body)
      : isDeepStrictEqual(shapeOf(mine.body), shapeOf(bare.body));
    if (!same)
      fail(
        `${endpoint.name}: the answers differ:\n    Kincare  ${JSON.stringify(mine.body).slice(0, 400)}\n    baseline ${JSON.stringify(bare.body).slice(0, 400)}`,
      );
    await load(origin, endpoint, warmUp, PGLITE_CONNECTIONS);
    const b = await load(origin, endpoint, seconds, PGLITE_CONNECTIONS);
    printLine(endpoint.name, k, b);
    for (const failure of k.failures) fail(`${endpoint.name}, Kincare: ${failure}`);
    for (const failure of b.failures) fail(`${endpoint.name}, baseline: ${failure}`);
  }
}

async function main(): Promise<void> {
  const logDir = mkdtempSync(join(tmpdir(), 'kincare-bench-server-logs-'));
  const started = performance.now();
  try {
    if (DATABASES.includes('postgres')) await postgresRun(logDir);
    if (DATABASES.includes('pglite')) await pgliteRun(logDir);
  } catch (error) {
    fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
  console.log(
    `\n(ratio = Kincare's requests/s over the bare server's, measured in this run; autocannon sends no Accept-Encoding, so neither compresses; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
  );
  if (broken > 0) {
    console.log(`${broken} error(s): the run broke`);
    process.exitCode = 1;
  }
}

if (process.argv.includes('--baseline')) await runBaseline();
else await main();
