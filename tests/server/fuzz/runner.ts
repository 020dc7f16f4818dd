import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';
import { updateProfileFieldsSchema } from '../../../src/domain/auth';
import { PERMISSIONS } from '../../../src/domain/permissions';
import { caregivers, patients } from '../../../src/server/db/schema';
import { insertCareLink } from '../../fixtures/people';
import { TINY_PNG } from '../../fixtures/images';
import { bearer, createUser, multipartForm, startTestApp, type TestContext, type TestUser } from '../helpers';
import { fitbitEnv, startFakeFitbit } from '../fake-fitbit';
import { startFakeOpenMeteo } from '../fake-open-meteo';
import type { FormHint } from './bodies';
import {
  bodySchemasOf,
  operationsOf,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from './openapi';
import { requestArbitrary, scopeOf, type FuzzRequest, type FuzzSetup } from './requests';
import { claimsOf, type AuthChoice, type Identity } from './tokens';

// The fuzz gate's harness, shared by tests/server/fuzz.test.ts and tests/bench/fuzz.ts: reads the
// document from the running app, signs in a real patient and caregiver (linked, with every permission,
// owning a record and a file), sends the generated requests one at a time through inject(), times each,
// keeps the real sessions alive, and reports every 5xx and every slow answer with the request that got it.

/** Where the fuzzer sends from: never the test's own 127.0.0.1, so its limits never stop the checks. */
const FUZZ_ADDRESSES = [
  ...Array.from({ length: 24 }, (_, i) => `10.77.${i >> 3}.${(i % 8) + 1}`),
  '::ffff:10.77.9.9',
  '2001:db8::77',
];
/** Where the harness renews sessions from, one address at a time, so no limit on an address builds up. */
const maintenanceAddress = (n: number) => `198.51.${100 + ((n >> 8) & 15)}.${n & 255 || 1}`;

const SIGNED_IN_PROBE = '/api/auth/profile';
const HEALTH = '/api/health';
const DOCUMENT = '/api/docs';

export type FuzzOptions = {
  runs: number;
  seed: number;
  /** An answer slower than this is a failure (a hang). */
  slowMs: number;
  /** A request with no answer after this long is given up on. */
  giveUpMs: number;
  onProgress?: (sent: number, report: FuzzReport) => void;
};

export type Answer = { status: number | 'no answer' | 'refused by inject'; ms: number; body: string };

export type Failure = {
  /** "POST /api/upload-image/: 500 (multipart cut at byte N of N)": operation, problem, kind of body. */
  key: string;
  count: number;
  /** The smallest request that showed it, as sent (real tokens shown by name only), and its answer. */
  example: string;
};

export type FuzzReport = {
  seed: number;
  sent: number;
  elapsedMs: number;
  /** CPU time this process spent (server and generator): what the run costs whatever the machine's load. */
  cpuMs: number;
  byClass: Record<string, number>;
  byStatus: Record<string, number>;
  /** Per operation, answers by class: shows which ones got past validation and the sign-in check. */
  byOperation: Record<string, Record<string, number>>;
  /** CPU milliseconds spent per operation (generating and answering its requests). */
  cpuByOperation: Record<string, number>;
  /** Answers to requests that carried a real token, by class. */
  signedIn: Record<string, number>;
  failures: Failure[];
  slowest: { ms: number; operation: string; notes: string }[];
  /** Sessions the fuzzed requests ended (a sign-out, say) and the harness renewed. */
  renewals: number;
  operations: number;
};

type Person = TestUser & { rowId: string };

/** What the document does not say about its forms: their text fields and file fields. */
export function formHints(): Record<string, FormHint> {
  const profileFields = z.toJSONSchema(updateProfileFieldsSchema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return {
    'PUT /api/auth/update-profile': { fields: profileFields, files: ['photo'] },
    'POST /api/upload-image/': { files: ['image'] },
  };
}

const classOf = (status: Answer['status']) =>
  typeof status === 'number' ? `${Math.floor(status / 100)}xx` : status;

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** A bounded set of recent values, kept in one array that the generator holds and reads as it draws. */
class Pool {
  readonly values: string[] = [];
  private readonly seen = new Set<string>();
  private next = 0;

  constructor(private readonly size: number) {}

  add(value: string): void {
    if (this.seen.has(value)) return;
    this.seen.add(value);
    if (this.values.length < this.size) {
      this.values.push(value);
      return;
    }
    const old = this.values[this.next];
    if (old !== undefined) this.seen.delete(old);
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.size;
  }
}

/** Real values from the server's answers: every id, file key and signed link, and each field's values by name. */
class Harvest {
  readonly ids = new Pool(200);
  readonly strings = new Set<string>();
  private readonly byName = new Map<string, Pool>();

  pool(name: string): string[] {
    let pool = this.byName.get(name);
    if (!pool) this.byName.set(name, (pool = new Pool(64)));
    return pool.values;
  }

  /** What an answer gives; `scope` (the resource it came from) keys a second pool per field name. */
  take(text: string, scope = ''): void {
    if (text.length > 200_000) return;
    for (const match of text.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi))
      this.ids.add(match[0]);
    for (const match of text.matchAll(
      /(?:lab|prescription|profile|appointment)\/(?:[0-9a-f]{32}\/)?[0-9a-f]{32}\.[a-z]{3,4}/g,
    ))
      this.strings.add(match[0]);
    for (const match of text.matchAll(/\/api\/files\/[^"\s]+/g)) {
      this.strings.add(match[0]);
      for (const [name, value] of new URL(match[0], 'http://x').searchParams) this.add(name, value);
    }
    try {
      this.walk(JSON.parse(text) as unknown, '', scope);
    } catch {
      // Not JSON: the patterns above took what there was.
    }
  }

  private walk(value: unknown, name: string, scope: string): void {
    if (typeof value === 'string') {
      if (name && value.length <= 300) {
        this.add(name, value);
        if (scope) this.add(`${scope} ${name}`, value);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) this.walk(item, name, scope);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) this.walk(inner, key, scope);
    }
  }

  private add(name: string, value: string): void {
    this.pool(name);
    this.byName.get(name)?.add(value);
  }
}

async function rowIdOf(ctx: TestContext, user: TestUser): Promise<string> {
  const table = user.role === 'Patient' ? patients : caregivers;
  const [row] = await ctx.database.db
    .select({ id: table.id })
    .from(table)
    .where(eq(table.userId, user.userId))
    .limit(1);
  if (!row) throw new Error(`no ${user.role} row for the fuzz gate's ${user.role}`);
  return row.id;
}

/** The real signed-in people the fuzzer acts as; renews a session a fuzzed request ended. */
export class Sessions {
  renewals = 0;
  private addressCount = 0;
  /** Every real token the run has used, so no report shows one, wherever it turns up. */
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly ctx: TestContext,
    readonly people: Record<Identity, Person>,
  ) {
    this.remember();
  }

  private remember(): void {
    for (const who of ['patient', 'caregiver'] as const)
      this.tokens.set(this.people[who].token, `<the ${who}'s real token>`);
  }

  /** The text with every real token replaced by a name. */
  redact(text: string): string {
    let out = text;
    for (const [token, name] of this.tokens) out = out.replaceAll(token, name);
    return out;
  }

  static async start(ctx: TestContext): Promise<Sessions> {
    const patient = await createUser(ctx, { role: 'Patient', name: 'Fuzz Patient', acceptBetaPolicy: true });
    const caregiver = await createUser(ctx, {
      role: 'Caregiver',
      name: 'Fuzz Caregiver',
      acceptBetaPolicy: true,
    });
    const sessions = new Sessions(ctx, {
      patient: { ...patient, rowId: await rowIdOf(ctx, patient) },
      caregiver: { ...caregiver, rowId: await rowIdOf(ctx, caregiver) },
    });
    await sessions.link();
    return sessions;
  }

  private async link(): Promise<void> {
    const { patient, caregiver } = this.people;
    await insertCareLink(
      this.ctx.database.db,
      { userId: patient.userId, token: patient.token, patientId: patient.rowId, caregiverId: null },
      { userId: caregiver.userId, token: caregiver.token, patientId: null, caregiverId: caregiver.rowId },
      [...PERMISSIONS],
    );
  }

  /** The Authorization header for a choice, and how a report may show it (never a real token). */
  header(auth: AuthChoice): { value?: string; shown?: string } {
    if (auth.kind === 'none') return {};
    if (auth.kind === 'forged')
      return { value: auth.header, shown: `${excerpt(auth.header, 160)} (${auth.label})` };
    return {
      value: `${auth.prefix}${this.people[auth.who].token}${auth.suffix}`,
      shown: `${JSON.stringify(auth.prefix)} + <the ${auth.who}'s real token> + ${JSON.stringify(auth.suffix)}`,
    };
  }

  /**
   * After a 401 to a real token: if a fuzzed request ended its session (a sign-out, say), open a new
   * session for the same person the way the tests' fixtures do (signing in again each time would run
   * into the sign-in limits); if the person is gone, sign up a new one.
   */
  async afterUnauthorized(who: Identity): Promise<void> {
    const person = this.people[who];
    const probe = await this.ctx.app.inject({
      method: 'GET',
      url: SIGNED_IN_PROBE,
      headers: bearer(person.token),
      remoteAddress: this.nextAddress(),
    });
    if (probe.statusCode !== 401) return;
    this.renewals++;
    const token = this.ctx.app.issueToken({ id: person.userId });
    const check = await this.ctx.app.inject({
      method: 'GET',
      url: SIGNED_IN_PROBE,
      headers: bearer(token),
      remoteAddress: this.nextAddress(),
    });
    if (check.statusCode === 200) {
      this.people[who] = { ...person, token };
      this.remember();
      return;
    }
    const fresh = await createUser(this.ctx, {
      role: who === 'patient' ? 'Patient' : 'Caregiver',
      name: `Fuzz ${who}`,
      acceptBetaPolicy: true,
    });
    this.people[who] = { ...fresh, rowId: await rowIdOf(this.ctx, fresh) };
    this.remember();
    await this.link();
  }

  private nextAddress(): string {
    this.addressCount += 1;
    return maintenanceAddress(this.addressCount);
  }
}

/** Reads the document, seeds real records and files, and gathers what the generator needs. */
export async function prepareFuzz(ctx: TestContext, sessions: Sessions): Promise<FuzzSetup> {
  const docs = await ctx.app.inject({ method: 'GET', url: DOCUMENT });
  if (docs.statusCode !== 200)
    throw new Error(`GET ${DOCUMENT} answered ${docs.statusCode}: the fuzz gate needs the document`);
  const operations: Operation[] = operationsOf(docs.json<OpenApiDocument>());
  if (operations.length === 0) throw new Error('the OpenAPI document lists no operations');
  const { patient, caregiver } = sessions.people;
  const harvest = new Harvest();
  for (const id of [patient.userId, caregiver.userId, patient.rowId, caregiver.rowId]) harvest.ids.add(id);
  // A stored file and records that hold it, so file keys, signed links and record ids are real. Each
  // step may fail (the routes change under other work): the fuzzer then runs with less to go on.
  const upload = multipartForm({}, [
    { field: 'image', filename: 'seed.png', contentType: 'image/png', bytes: TINY_PNG },
  ]);
  const uploaded = await ctx.app.inject({
    method: 'POST',
    url: '/api/upload-image?type=appointment',
    headers: { ...bearer(patient.token), ...upload.headers },
    payload: upload.payload,
  });
  harvest.take(uploaded.body, 'upload-image');
  const key = [...harvest.strings].find((value) => !value.startsWith('/'));
  for (let i = 0; i < 3; i++) {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: bearer(patient.token),
      payload: {
        id: randomUUID(),
        patient_id: patient.rowId,
        appointment_title: `Fuzz seed ${i}`,
        appointment_date: new Date(Date.UTC(2030, 0, 1 + i, 9, 30)).toISOString(),
        ...(i === 0 && key ? { attachment_key: key } : {}),
      },
    });
    harvest.take(created.body, 'appointments');
  }
  // Every documented GET that needs nothing, as each person: their profiles, sessions, records.
  for (const operation of operations) {
    if (operation.method !== 'GET' || operation.pathParams.length > 0) continue;
    if (operation.query.some((parameter) => parameter.required)) continue;
    for (const person of [patient, caregiver]) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url: operation.path,
        headers: bearer(person.token),
      });
      harvest.take(answer.body, scopeOf(operation.path));
    }
  }
  const hints = formHints();
  return {
    operations,
    world: {
      ids: harvest.ids.values,
      strings: [...harvest.strings],
      pool: (name) => harvest.pool(name),
      bodies: bodySchemasOf(operations),
      bodyLimitBytes: ctx.config.bodyLimitBytes,
      uploadLimitBytes: ctx.config.uploadLimitBytes,
    },
    tokens: { secret: ctx.config.jwtSecret, claims: claimsOf(patient.token), ids: [...harvest.ids.values] },
    learn: (text, scope) => harvest.take(text, scope),
    formHints: Object.fromEntries(
      Object.entries(hints).filter(([id]) => operations.some((operation) => operation.id === id)),
    ),
    addresses: FUZZ_ADDRESSES,
  };
}

function excerpt(text: string, length: number): string {
  const shown = JSON.stringify(text.slice(0, length));
  return text.length > length ? `${shown}... (${text.length} characters)` : shown;
}

function bodyExcerpt(payload: string | Buffer | undefined): string {
  if (payload === undefined) return '(none)';
  if (typeof payload === 'string') return `${Buffer.byteLength(payload)} bytes: ${excerpt(payload, 400)}`;
  const text = payload.toString('utf8');
  const utf8 = Buffer.from(text, 'utf8').equals(payload);
  return `${payload.length} bytes${utf8 ? '' : ' (not UTF-8, shown as latin1)'}: ${excerpt(utf8 ? text : payload.toString('latin1'), 400)}`;
}

/** A request as a person reproducing it needs it: method, url, sender, headers, body, what was hostile. */
export function describeRequest(request: FuzzRequest, authShown: string | undefined): string {
  const lines = [
    `${request.method} ${request.url.length > 600 ? `${request.url.slice(0, 600)}... (${request.url.length} characters)` : request.url}`,
  ];
  lines.push(`  from ${request.remoteAddress}`);
  if (authShown) lines.push(`  authorization: ${authShown}`);
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`  ${name}: ${excerpt(value, 200)}`);
  lines.push(`  body: ${bodyExcerpt(request.payload)}`);
  lines.push(`  made hostile: ${request.notes.join('; ') || 'nothing'}`);
  return lines.join('\n');
}

async function send(
  ctx: TestContext,
  request: FuzzRequest,
  authorization: string | undefined,
  giveUpMs: number,
): Promise<Answer> {
  const options: InjectOptions = {
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers: { ...request.headers, ...(authorization !== undefined ? { authorization } : {}) },
    remoteAddress: request.remoteAddress,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      ctx.app.inject(options),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), giveUpMs);
      }),
    ]);
    const ms = performance.now() - started;
    if (!answer) return { status: 'no answer', ms, body: '' };
    return { status: answer.statusCode, ms, body: answer.body };
  } catch (error) {
    // inject() itself refused the request (a client-side check): no server answer to judge.
    return { status: 'refused by inject', ms: performance.now() - started, body: String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `runs` generated requests and reports what came back. Never throws for what the server did. */
export async function runFuzz(
  ctx: TestContext,
  setup: FuzzSetup,
  sessions: Sessions,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const report: FuzzReport = {
    seed: options.seed,
    sent: 0,
    elapsedMs: 0,
    cpuMs: 0,
    byClass: {},
    byStatus: {},
    byOperation: {},
    cpuByOperation: {},
    signedIn: {},
    failures: [],
    slowest: [],
    renewals: 0,
    operations: setup.operations.length,
  };
  const failures = new Map<string, { count: number; size: number; example: string }>();
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  await fc.assert(
    fc.asyncProperty(requestArbitrary(setup), async (request) => {
      const { value, shown } = sessions.header(request.auth);
      const cpuBefore = process.cpuUsage();
      const answer = await send(ctx, request, value, options.giveUpMs);
      const cpuSpent = process.cpuUsage(cpuBefore);
      report.cpuByOperation[request.operation] =
        (report.cpuByOperation[request.operation] ?? 0) + (cpuSpent.user + cpuSpent.system) / 1000;
      report.sent += 1;
      const kind = classOf(answer.status);
      if (kind === '2xx') setup.learn(answer.body, scopeOf(request.operation.split(' ')[1] ?? ''));
      bump(report.byClass, kind);
      bump(report.byStatus, String(answer.status));
      bump((report.byOperation[request.operation] ??= {}), kind);
      if (request.auth.kind === 'real') bump(report.signedIn, kind);
      if (report.slowest.length < 5 || answer.ms > (report.slowest[report.slowest.length - 1]?.ms ?? 0)) {
        report.slowest.push({
          ms: Math.round(answer.ms),
          operation: request.operation,
          notes: request.notes.slice(0, 3).join('; '),
        });
        report.slowest.sort((a, b) => b.ms - a.ms).splice(5);
      }
      const problem =
        answer.status === 'no answer'
          ? 'no answer'
          : typeof answer.status === 'number' && answer.status >= 500
            ? String(answer.status)
            : answer.ms > options.slowMs
              ? 'slow'
              : undefined;
      if (problem) {
        const key = `${request.operation}: ${problem} (${request.shape})`;
        const size = request.url.length + (request.payload?.length ?? 0);
        const seen = failures.get(key);
        if (!seen || size < seen.size) {
          const example = sessions.redact(
            [
              `request #${report.sent} of seed ${options.seed}:`,
              describeRequest(request, shown),
              `  answer: ${answer.status} after ${Math.round(answer.ms)} ms: ${excerpt(answer.body, 300)}`,
            ].join('\n'),
          );
          failures.set(key, { count: (seen?.count ?? 0) + 1, size, example });
        } else seen.count += 1;
      }
      if (request.auth.kind === 'real' && answer.status === 401)
        await sessions.afterUnauthorized(request.auth.who);
      if (options.onProgress && report.sent % 1000 === 0) {
        report.elapsedMs = performance.now() - started;
        options.onProgress(report.sent, report);
      }
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: true },
  );
  report.elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  report.cpuMs = (cpu.user + cpu.system) / 1000;
  report.renewals = sessions.renewals;
  report.failures = [...failures.entries()].map(([key, { count, example }]) => ({ key, count, example }));
  return report;
}

/** Problems with the server after the run: it must answer its health check, and a new person must be able to sign up, sign in and read. */
export async function healthProblems(ctx: TestContext): Promise<string[]> {
  const problems: string[] = [];
  const health = await ctx.app.inject({ method: 'GET', url: HEALTH });
  if (health.statusCode !== 200) problems.push(`GET ${HEALTH} answered ${health.statusCode}: ${health.body}`);
  try {
    const person = await createUser(ctx, { role: 'Patient', name: 'After Fuzz', acceptBetaPolicy: true });
    for (const url of [SIGNED_IN_PROBE, '/api/appointments']) {
      const answer = await ctx.app.inject({ method: 'GET', url, headers: bearer(person.token) });
      if (answer.statusCode !== 200)
        problems.push(
          `GET ${url} as a new signed-in person answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`,
        );
    }
  } catch (error) {
    problems.push(`a new person could not sign up and sign in: ${String(error)}`);
  }
  return problems;
}

/** The report as lines for a log: totals, answers by class and by operation, the slowest requests. */
export function summarize(report: FuzzReport): string {
  const seconds = report.elapsedMs / 1000;
  const lines = [
    `${report.sent} requests over ${report.operations} documented operations in ${seconds.toFixed(1)} s (${Math.round(report.sent / seconds)} requests/s; CPU ${(report.cpuMs / report.sent).toFixed(2)} ms a request), seed ${report.seed}`,
    `answers by class: ${JSON.stringify(report.byClass)}; with a real token: ${JSON.stringify(report.signedIn)}; sessions renewed: ${report.renewals}`,
    `answers by status: ${JSON.stringify(report.byStatus)}`,
    `most CPU: ${Object.entries(report.cpuByOperation)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 6)
      .map(([operation, ms]) => `${operation} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}; generating and the harness: ${(
      (report.cpuMs - Object.values(report.cpuByOperation).reduce((sum, ms) => sum + ms, 0)) /
      1000
    ).toFixed(1)} s`,
    `slowest: ${report.slowest.map((slow) => `${slow.ms} ms ${slow.operation} (${slow.notes})`).join(' | ')}`,
    'by operation:',
    ...Object.entries(report.byOperation)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, counts]) => `  ${operation.padEnd(44)} ${JSON.stringify(counts)}`),
  ];
  return lines.join('\n');
}

/** The failures, each with its smallest request, for a test's failure message. */
export function describeFailures(report: FuzzReport, slowMs: number, seedVariable = 'FUZZ_SEED'): string {
  return [
    `${report.failures.length} kinds of failure (a 5xx, an answer slower than ${slowMs} ms, or none) in ${report.sent} requests, seed ${report.seed} (${seedVariable}=${report.seed} replays the run):`,
    ...report.failures.map(
      (failure) => `\n${failure.key} (${failure.count} times); the smallest:\n${failure.example}`,
    ),
  ].join('\n');
}

/**
 * The app the fuzz gate and its benchmark send to: the local services its routes ask (a weather service
 * answering like Open-Meteo, a Fitbit answering like Fitbit's OAuth and Web API, without which the Fitbit
 * routes answer their designed 503), and a sandbox that has read one file already, as on a server that
 * has been up a while, so that the 3 s bound judges reading, not starting.
 */
export async function startFuzzApp(): Promise<{ ctx: TestContext; close: () => Promise<void> }> {
  const weather = await startFakeOpenMeteo();
  const fitbit = await startFakeFitbit();
  const ctx = await startTestApp({ WEATHER_API_URL: weather.url, ...fitbitEnv(fitbit) });
  await ctx.app.ocr.recognize(TINY_PNG, 'image/png').catch(() => undefined);
  return {
    ctx,
    close: async () => {
      await ctx.close();
      await weather.close();
      await fitbit.stop();
    },
  };
}
