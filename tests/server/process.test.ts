import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataDirWithDatabase } from '../fixtures/database-template';

// The real server as `npm start` runs it: src/server/main.ts in its own Node process, PGlite on disk in a
// temp DATA_DIR, talked to over TCP. This is the only place where signals, exit codes, the printed address
// and data surviving a restart can be seen; everything else is tested in-process with inject().

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const STARTUP_MS = 45_000; // PGlite on disk plus migrations takes ~5-8 s here, more while other files run
const EXIT_MS = 5_000;

type Exit = { code: number | null; signal: NodeJS.Signals | null };

type Server = {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
  port: number;
};

const children: Server['child'][] = [];
const tempDirs: string[] = [];

afterEach(async () => {
  // A failed assertion must not leave a server (and its open PGlite) running, nor its data behind.
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }),
  );
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kincare-process-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * Spawns main.ts with only the variables given (plus PATH and HOME), so settings of the machine running the
 * tests, such as a DATABASE_URL or SMTP_URL, cannot leak into the server under test.
 */
function spawnServer(env: Record<string, string>): Omit<Server, 'port'> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits until `found` sees what it waits for in the output; fails early with the output if the server dies. */
async function waitFor<T>(
  server: Omit<Server, 'port'>,
  found: () => T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    const died = server.child.exitCode !== null || server.child.signalCode !== null;
    if (died || Date.now() > deadline) {
      throw new Error(
        `${died ? 'server exited' : 'timed out'} waiting for ${what}\n${server.stdout()}\n${server.stderr()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ADDRESS = /Kincare is running at http:\/\/localhost:(\d+) \(database: pglite\)/;

/** Starts the server on a port the OS picks (PORT=0) and reads the real port from its printed address. */
async function startServer(dataDir: string, logLevel = 'warn'): Promise<Server> {
  const server = spawnServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    DATABASE_URL: '', // empty means unset: PGlite in DATA_DIR
  });
  const port = await waitFor(server, () => ADDRESS.exec(server.stdout())?.[1], STARTUP_MS, 'the address');
  return { ...server, port: Number(port) };
}

const logLineSchema = z.looseObject({
  level: z.number(),
  msg: z.string(),
  req: z.looseObject({ url: z.string() }).optional(),
});
type LogLine = z.infer<typeof logLineSchema>;

/** The server's JSON log lines (pino writes them to stdout, beside the plain address line). */
function logLines(server: Server): LogLine[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      const parsed = logLineSchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    });
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * An HTTP request whose body is sent in two parts: the head and the first bytes now, the rest when
 * `finish()` is called. Until then the request is certainly in flight on the server, however fast the
 * machine is, which a timer cannot promise. `agent: false` sends `Connection: close`.
 */
function startRequest(
  port: number,
  method: string,
  path: string,
  body: unknown = undefined,
  agent: http.Agent | false = false,
): { finish: () => void; answer: Promise<Answer> } {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const request = http.request({
    host: '127.0.0.1',
    port,
    method,
    path,
    agent,
    headers: payload
      ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
      : {},
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
      response.on('error', reject);
    });
  });
  const half = Math.floor(payload.length / 2);
  request.write(payload.slice(0, half));
  return { finish: () => request.end(payload.slice(half)), answer };
}

function send(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  agent: http.Agent | false = false,
): Promise<Answer> {
  const request = startRequest(port, method, path, body, agent);
  request.finish();
  return request.answer;
}

/** Resolves with the error code when the connection fails (ECONNREFUSED), or with the HTTP status. */
async function tryHealth(port: number): Promise<{ refused: string } | { status: number }> {
  try {
    return { status: (await send(port, 'GET', '/api/health')).status };
  } catch (error) {
    if (error instanceof Error && 'code' in error && typeof error.code === 'string')
      return { refused: error.code };
    throw error;
  }
}

let accountCounter = 0;
function newAccount() {
  accountCounter += 1;
  return {
    name: 'Process Test',
    email: `process-${accountCounter}-${Date.now()}@example.com`,
    password: 'correct-horse-1',
    role: 'Patient',
    zip_code: '10001',
  };
}

/** What pino calls an error (50) or worse in the server's own log. */
function errorsLogged(server: Server): LogLine[] {
  return logLines(server).filter((line) => line.level >= 50);
}

describe('the server process (node src/server/main.ts)', () => {
  it(
    'starts on PGlite in DATA_DIR, applies the migrations, prints its address and serves the API',
    { timeout: 60_000 },
    async () => {
      const server = await startServer(tempDataDir());
      expect(server.stdout()).toMatch(ADDRESS);
      expect(server.port).toBeGreaterThan(0);

      const health = await send(server.port, 'GET', '/api/health');
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });

      // Registering writes to the accounts tables: it only answers 201 if the migrations ran.
      const registered = await send(server.port, 'POST', '/api/auth/register', newAccount());
      expect(registered.status, registered.body).toBe(201);
      expect(server.stderr()).toBe('');
    },
  );

  it(
    'on SIGTERM refuses new connections, finishes the request in flight, closes the database and exits 0',
    { timeout: 60_000 },
    async () => {
      // A database made already (a copy): the first start's work is the test above's.
      const dataDir = await dataDirWithDatabase(tempDataDir());
      // info level: the log shows when the request arrived and when shutdown began, so no timer is needed.
      const server = await startServer(dataDir, 'info');
      const account = newAccount();

      // An idle keep-alive connection, as a browser keeps between requests, must not hold the shutdown open.
      const idleAgent = new http.Agent({ keepAlive: true });
      expect((await send(server.port, 'GET', '/api/health', undefined, idleAgent)).status).toBe(200);

      const inFlight = startRequest(server.port, 'POST', '/api/auth/register', account);
      await waitFor(
        server,
        () =>
          logLines(server).find(
            (line) => line.msg === 'incoming request' && line.req?.url === '/api/auth/register',
          ),
        10_000,
        'the register request to arrive',
      );
      server.child.kill('SIGTERM');
      await waitFor(
        server,
        () => logLines(server).find((line) => line.msg.startsWith('shutting down')),
        10_000,
        'shutdown',
      );

      // The listener closes at once; until it has, a newcomer may only get 503 (return503OnClosing), never a 200.
      const deadline = Date.now() + 3_000;
      let probe = await tryHealth(server.port);
      while ('status' in probe && Date.now() < deadline) {
        expect(probe.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 20));
        probe = await tryHealth(server.port);
      }
      expect(probe).toEqual({ refused: 'ECONNREFUSED' });
      expect(server.child.exitCode, 'the process waits for the request in flight').toBeNull();

      // The rest of the body arrives after shutdown began: the password is hashed and the account stored.
      inFlight.finish();
      const answer = await inFlight.answer;
      expect(answer.status, answer.body).toBe(201);

      const exit = await Promise.race([
        server.exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), EXIT_MS)),
      ]);
      idleAgent.destroy();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(errorsLogged(server)).toEqual([]);
      expect(server.stderr()).toBe('');

      // Same DATA_DIR, new process: the account is there (PGlite flushed and closed cleanly), and as its
      // e-mail is not verified yet, signing in answers 403 EMAIL_NOT_VERIFIED rather than 401.
      const again = await startServer(dataDir);
      const login = await send(again.port, 'POST', '/api/auth/login', {
        email: account.email,
        password: account.password,
      });
      expect(login.status, login.body).toBe(403);
      expect(JSON.parse(login.body)).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
      expect(again.stderr()).toBe('');
    },
  );

  // A response that finishes during shutdown must say `Connection: close`, or the client's open
  // keep-alive connection would hold the process (and PGlite) for Fastify's 72 s keepAliveTimeout.
  it(
    'on SIGTERM also exits promptly while a client keeps its connection alive, as browsers do',
    { timeout: 60_000 },
    async () => {
      // A database made already (a copy): the first start's work is the first test's.
      const server = await startServer(await dataDirWithDatabase(tempDataDir()), 'info');
      const agent = new http.Agent({ keepAlive: true });
      try {
        const inFlight = startRequest(server.port, 'POST', '/api/auth/register', newAccount(), agent);
        await waitFor(
          server,
          () =>
            logLines(server).find(
              (line) => line.msg === 'incoming request' && line.req?.url === '/api/auth/register',
            ),
          10_000,
          'the register request to arrive',
        );
        server.child.kill('SIGTERM');
        await waitFor(
          server,
          () => logLines(server).find((line) => line.msg.startsWith('shutting down')),
          10_000,
          'shutdown',
        );
        inFlight.finish();
        const answer = await inFlight.answer;
        expect(answer.status, answer.body).toBe(201);
        expect(answer.headers.connection).toBe('close');

        const exit = await Promise.race([
          server.exited,
          new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), EXIT_MS)),
        ]);
        expect(exit).toEqual({ code: 0, signal: null });
      } finally {
        agent.destroy();
      }
    },
  );

  it(
    'exits with code 1 and a one-line reason naming the variable when the configuration is bad',
    { timeout: 60_000 },
    async () => {
      const dataDir = tempDataDir();
      const server = spawnServer({ PORT: 'abc', DATA_DIR: dataDir, DATABASE_URL: '' });
      const exit = await Promise.race([
        server.exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000)),
      ]);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(server.stderr()).toMatch(/^Kincare cannot start: invalid configuration$/m);
      expect(server.stderr()).toMatch(/^\s+PORT: must be a whole number/m);
      // A stack trace would bury the one line the operator needs.
      expect(server.stderr()).not.toMatch(/^\s+at /m);
      expect(server.stdout()).not.toMatch(ADDRESS);
    },
  );
});
