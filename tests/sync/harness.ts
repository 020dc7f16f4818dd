import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/config';
import { openDatabase, pgliteDirFor, type DatabaseHandle } from '../../src/server/db/client';
import { dataDirWithDatabase } from '../fixtures/database-template';
import { buildApp } from '../../src/server/app';
import { insertCareLink, insertPerson, type Person } from '../fixtures/people';
import { KincareDb } from '../../src/local/db';
import { createTransport, TransportError, type Transport } from '../../src/local/sync-transport';
import { syncOnce } from '../../src/local/sync-engine';

// The real server on a port (PGlite on disk, so it can be stopped and started again) and simulated
// devices: each a replica on its own fake IndexedDB, syncing through the real engine over real HTTP.

export type Server = {
  baseURL: string;
  database: () => DatabaseHandle;
  app: () => FastifyInstance;
  restart: () => Promise<void>;
  stop: () => Promise<void>;
  close: () => Promise<void>;
  start: () => Promise<void>;
};

/** The real app on a database of its own; `env` adds settings of src/server/config.ts (a small quota, say). */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kincare-sync-'));
  const onPglite = process.env.TEST_DATABASE !== 'postgres';
  // PGlite starts from a copy of a database made once (migrated), not from an empty folder.
  if (onPglite) await dataDirWithDatabase(dataDir);
  const pgliteDir = onPglite ? pgliteDirFor(dataDir) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'sync-test-secret-that-is-long-enough-for-hs256',
    ...(process.env.TEST_DATABASE === 'postgres' && process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL }
      : {}),
    ...env,
  });
  let handle: DatabaseHandle | null = null;
  let app: FastifyInstance | null = null;
  let port = 0;
  const start = async () => {
    handle = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
    app = await buildApp({ config, db: handle.db, distDir: join(dataDir, 'no-dist') });
    await app.listen({ port, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  };
  const stop = async () => {
    await app?.close();
    await handle?.close();
    app = null;
    handle = null;
  };
  await start();
  return {
    baseURL: `http://127.0.0.1:${port}/api`,
    database: () => {
      if (!handle) throw new Error('server is stopped');
      return handle;
    },
    app: () => {
      if (!app) throw new Error('server is stopped');
      return app;
    },
    restart: async () => {
      await stop();
      await start();
    },
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Account = Person;

export function makeAccount(server: Server, role: 'Patient' | 'Caregiver'): Promise<Account> {
  return insertPerson(server.database().db, server.app(), role);
}

export function linkCaregiver(
  server: Server,
  patient: Account,
  caregiver: Account,
  permissions: string[],
): Promise<void> {
  return insertCareLink(server.database().db, patient, caregiver, permissions);
}

/** A network that can be cut, and that can lose answers or deliver a request twice. */
export class FlakyNetwork {
  online = true;
  loseAnswerRate = 0;
  duplicateRate = 0;
  failRate = 0;
  private sent: Parameters<Transport>[0][] = [];
  constructor(
    private readonly inner: Transport,
    private readonly random: () => number = Math.random,
  ) {}

  readonly transport: Transport = async (request) => {
    if (!this.online || this.random() < this.failRate) throw new TransportError('network is down');
    if (request.method !== 'GET') this.sent.push(request);
    const response = await this.inner(request);
    if (request.method !== 'GET' && this.random() < this.duplicateRate)
      await this.inner(request).catch(() => undefined);
    if (this.random() < this.loseAnswerRate) throw new TransportError('the answer was lost');
    return response;
  };

  /** Delivers an earlier request again, out of order (a stale duplicate from a confused proxy). */
  async replayOldRequest(): Promise<void> {
    const old = this.sent[Math.floor(this.random() * this.sent.length)];
    if (old) await this.inner(old).catch(() => undefined);
  }
}

export type Device = {
  name: string;
  db: KincareDb;
  network: FlakyNetwork;
  sync: (force?: boolean) => ReturnType<typeof syncOnce>;
  close: () => void;
};

export async function makeDevice(
  server: Server,
  account: Account,
  name: string,
  getToken: () => string = () => account.token,
  random?: () => number,
): Promise<Device> {
  const db = new KincareDb(`kincare-${account.userId}-${name}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  const network = new FlakyNetwork(
    createTransport({ baseURL: server.baseURL, getToken, timeoutMs: 10_000 }),
    random,
  );
  return {
    name,
    db,
    network,
    sync: (force = true) => syncOnce(db, network.transport, { lockName: `device:${name}`, force }),
    close: () => db.close(),
  };
}

/** The fields of an appointment a device adds in these tests: one visit of this patient, nothing attached. */
export const visitFields = (
  patientId: string,
  title = 'Dentist',
  { notes = '', date = '2026-12-03T09:00:00.000Z' }: { notes?: string; date?: string } = {},
) => ({
  patient_id: patientId,
  caregiver_id: null,
  appointment_title: title,
  appointment_date: date,
  doctor_id: null,
  location: '',
  notes,
  status: 'scheduled' as const,
});
