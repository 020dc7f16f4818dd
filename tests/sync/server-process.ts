import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, pgliteDirFor, type Database, type DatabaseHandle } from '../../src/server/db/client';
import { dataDirWithDatabase } from '../fixtures/database-template';

// Kincare's real server as a separate process (src/server/main.ts under tsx), so that a test can end it
// the way a crash or an OOM killer does: SIGKILL, with requests and transactions under way, and start it
// again on the same data. PGlite lives in DATA_DIR (it is single-process: the test opens it only while the
// server is down); with TEST_DATABASE=postgres the server uses DATABASE_URL and the test may open it at
// any time. The process starts on PORT=0 and the port is read from the line main.ts prints when ready.

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));
const READY_LINE = /Kincare is running at (http:\/\/\S+) \(database: (\w+)\)/;
const START_TIMEOUT_MS = 60_000;
/** Fixed, so tests can sign tokens the server accepts (an expired one, say). */
export const TEST_JWT_SECRET = 'chaos-test-secret-that-is-long-enough-for-hs256';

export type ServerProcessOptions = {
  /** Postgres instead of PGlite; defaults to DATABASE_URL when TEST_DATABASE=postgres. */
  databaseUrl?: string | undefined;
  /** More environment for the server (settings of src/server/config.ts). */
  env?: Record<string, string>;
};

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE === 'postgres' ? process.env.DATABASE_URL : undefined;
}

export class ServerProcess {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'kincare-server-'));
  readonly databaseUrl: string | undefined;
  /** How often the process was started, and how it ended each time. */
  readonly history: { started: number; kills: number; stops: number } = { started: 0, kills: 0, stops: 0 };
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private origin = 'http://127.0.0.1:1';
  private handle: DatabaseHandle | null = null;
  /** The server's error log lines (LOG_LEVEL=error), for the report of a failing run. */
  readonly errors: string[] = [];
  /** Times the process ended without being told to (after it had started). */
  readonly crashes: string[] = [];
  private ending = false;

  constructor(private readonly options: ServerProcessOptions = {}) {
    this.databaseUrl = 'databaseUrl' in options ? options.databaseUrl : testDatabaseUrl();
  }

  /** The API's base URL of the current (or last) process: while it is down, requests to it are refused. */
  get baseURL(): string {
    return `${this.origin}/api`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get driver(): 'pglite' | 'postgres' {
    return this.databaseUrl ? 'postgres' : 'pglite';
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('the server is already running');
    if (this.handle && this.driver === 'pglite') await this.closeDatabase();
    // The first start finds the database a first start would have made (a copy, tests/fixtures).
    if (this.driver === 'pglite' && this.history.started === 0) await dataDirWithDatabase(this.dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: REPOSITORY,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TMPDIR: process.env.TMPDIR ?? tmpdir(),
        DATA_DIR: this.dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'error',
        PORT: '0',
        HOST: '127.0.0.1',
        // Devices sign in again after every expired token: the per-minute limit is not under test here.
        RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
        ...(this.databaseUrl ? { DATABASE_URL: this.databaseUrl } : {}),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        // Not ended by this class: the server died on its own, which is a bug to report.
        if (this.child === child && !this.ending) this.crashes.push(`exited by itself (${code ?? signal})`);
        if (this.child === child) this.child = null;
        resolve();
      }),
    );
    let output = '';
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start in ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const onLine = (line: string) => {
        const match = READY_LINE.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1].replace('localhost', '127.0.0.1'));
        } else if (line.trim()) {
          output += `${line}\n`;
          if (output.length > 20_000) output = output.slice(-10_000);
          if (/"level":(50|60)/.test(line) || !line.startsWith('{')) this.errors.push(line.slice(0, 2000));
        }
      };
      for (const stream of [child.stdout, child.stderr]) {
        let pending = '';
        stream?.on('data', (chunk: Buffer) => {
          pending += chunk.toString('utf8');
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          lines.forEach(onLine);
        });
      }
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited while starting (${code ?? signal}):\n${output}`));
      });
    });
    try {
      this.origin = await ready;
    } catch (error) {
      this.child = null;
      throw error;
    }
    this.history.started++;
  }

  /** Ends the process at once, as a crash would: no request or transaction under way gets to finish. */
  async kill(): Promise<void> {
    if (await this.end('SIGKILL')) this.history.kills++;
  }

  /** The graceful stop of main.ts (SIGTERM): in-flight requests finish, then the database closes. */
  async stop(): Promise<void> {
    if (await this.end('SIGTERM')) this.history.stops++;
  }

  /** Ends the process with this signal; false when it was not running. */
  private async end(signal: 'SIGKILL' | 'SIGTERM'): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    this.ending = true;
    child.kill(signal);
    await this.exited;
    this.child = null;
    this.ending = false;
    return true;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /**
   * Runs `work` on the server's database, as an operator would. PGlite is single-process: the server must
   * be down (the test kills or stops it first). Postgres may be written while the server runs.
   */
  async withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
    if (this.driver === 'pglite' && this.child)
      throw new Error('PGlite is single-process: stop or kill the server before opening its database');
    this.handle ??= await openDatabase({
      databaseUrl: this.databaseUrl,
      pgliteDir: pgliteDirFor(this.dataDir),
    });
    return work(this.handle.db);
  }

  /** Closes the test's own connection (PGlite: before the server may start again). */
  async closeDatabase(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  async close(): Promise<void> {
    await this.kill();
    await this.closeDatabase();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
