import { seeded } from './seeded';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { and, eq } from 'drizzle-orm';
import { addAppointment, editAppointment, removeAppointment } from '../../src/local/appointments';
import { KincareDb } from '../../src/local/db';
import { syncOnce } from '../../src/local/sync-engine';
import type { Database } from '../../src/server/db/client';
import { careLinks, records, uploads } from '../../src/server/db/schema';
import { purgeTombstones } from '../../src/server/services/records';
import { TINY_PNG } from '../fixtures/images';
import { expiredToken, registerThroughApi, signIn, type ApiAccount } from './accounts-api';
import { CALM, ChaosNetwork, type FaultRates, type NetworkStats } from './chaos-network';
import { Oracle, type Permission, type ServerRecord } from './chaos-oracle';
import { ServerProcess } from './server-process';

// The chaos run. Several devices (a patient's phone and laptop, a caregiver's phone; more patient devices
// when asked) each keep a replica on their own fake IndexedDB and sync with the real engine (syncOnce) over
// real HTTP to Kincare's server running as a separate process, through a network that fails in every way
// chaos-network.ts lists. Devices create, edit single fields (with values unique to the operation) and delete
// at random, attach files, go offline, lose their sign-in (an expired token: 401, then a fresh sign-in), and
// pull in small pages (7 rows) so every pull spans pages. The server is SIGKILLed with requests in flight;
// while it is down, tombstones are purged and the caregiver's access is withdrawn, narrowed or given back
// (in the database, as an operator or another screen would), and devices keep working offline. At the end
// every device syncs on a clean network until nothing moves, and the oracle (chaos-oracle.ts) compares what
// was acknowledged with the server and every replica with the server.
//
// A seed decides every choice: each action draws a fixed number of values from one seeded generator, and
// each device's network a fixed number per request from its own. Devices act one at a time; where two sync
// at once (and in the kill windows, where all do), that is a seeded choice too. What a seed does not fix is
// timing: where exactly a SIGKILL lands (before or after a commit), how the requests of overlapping syncs
// interleave at the server, and so which versions records get, which answers are merges, and, when that
// changes how many requests a device makes, which of its later requests meet which fault. Choices about
// records are made among the records a device holds, ordered by when they were created (never by their
// random ids), so a replay follows the same course until timing changes what a device holds.

export type ChaosOptions = {
  seed: number;
  /** Device actions (create, edit, delete, sync, network change, sign-in loss, stale replay). */
  operations: number;
  /** 3 or more: the last is the caregiver's, the others the patient's. */
  devices?: number;
  /** Server SIGKILLs, spread evenly over the run (the name the benchmark uses). */
  restarts?: number;
  /** Rows per pull page. */
  pageSize?: number;
  /** Tombstone purges and caregiver access changes in the kill windows (on by default). */
  purges?: boolean;
  scopeChanges?: boolean;
  /** Late copies of old requests (on by default). */
  staleReplays?: boolean;
  /** Progress lines (CHAOS_VERBOSE=1 in the test). */
  log?: (line: string) => void;
};

export type ChaosReport = {
  seed: number;
  database: 'pglite' | 'postgres';
  operations: number;
  devices: number;
  creates: number;
  edits: number;
  deletes: number;
  attachments: number;
  syncs: number;
  overlappingSyncs: number;
  restarts: number;
  killsInFlight: number;
  /** Requests under way (sent, not answered) when the server was killed. */
  requestsCutByKills: number;
  purges: number;
  tombstonesPurged: number;
  scopeChanges: number;
  expiredTokens: number;
  signIns: number;
  staleReplays: number;
  queued: number;
  acknowledged: number;
  refused: number;
  merged: number;
  serverRecords: number;
  network: Omit<NetworkStats, 'real5xx'> & { real5xx: number };
  /** Every difference from what the oracle expects; the run passes when there is none. */
  problemCount: number;
  /** The first few, to debug a failing seed. */
  problems: string[];
  seconds: number;
};

const PROBLEMS_SHOWN = 12;
/** The changed_at clock: a fixed past instant plus one second per operation (the server caps times at its now). */
const CLOCK_START = Date.UTC(2024, 0, 1);
const EDITED_FIELDS = ['appointment_title', 'location', 'notes', 'appointment_date'] as const;
const ALL_PERMISSIONS: readonly Permission[] = [
  'ReadAppointment',
  'AddAppointment',
  'EditAppointment',
  'DeleteAppointment',
];
/** What the caregiver may do, as the kill windows change it: everything, some, read-only, or nothing. */
const ACCESS_STATES: readonly (readonly Permission[])[] = [
  ALL_PERMISSIONS,
  ALL_PERMISSIONS,
  ['ReadAppointment', 'AddAppointment', 'EditAppointment'],
  ['ReadAppointment'],
  [],
];
const FLAKY: FaultRates = {
  down: 0.03,
  lost: 0.08,
  duplicate: 0.08,
  serverError: 0.05,
  tooMany: 0.03,
  errorAfterApply: 0.05,
};
const HOSTILE: FaultRates = {
  down: 0.1,
  lost: 0.15,
  duplicate: 0.15,
  serverError: 0.1,
  tooMany: 0.05,
  errorAfterApply: 0.08,
};
const DRAWS_PER_STEP = 8;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type ChaosDevice = {
  name: string;
  account: ApiAccount;
  byCaregiver: boolean;
  db: KincareDb;
  network: ChaosNetwork;
  token: string | null;
  tokenExpired: boolean;
  needsSignIn: boolean;
  /** Records a finished pull told this device are deleted. */
  heardDeleted: Set<string>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const deviceCount = Math.max(3, options.devices ?? 3);
  const pageSize = options.pageSize ?? 7;
  const kills = options.restarts ?? 4;
  const log = options.log ?? (() => undefined);
  const random = seeded(options.seed);
  const draws = () => Array.from({ length: DRAWS_PER_STEP }, random);
  // A person's upload quotas (files a day, uploads a minute) are not under test here: a long run attaches
  // hundreds of files within minutes, and past the day's quota a change with a file rightly waits until
  // tomorrow (a 429 the device tries again), which a run that must settle cannot wait for.
  const server = new ServerProcess({
    env: { UPLOAD_DAILY_FILES: '1000000', RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' },
  });
  const counts = {
    creates: 0,
    edits: 0,
    deletes: 0,
    attachments: 0,
    syncs: 0,
    overlappingSyncs: 0,
    killsInFlight: 0,
    requestsCutByKills: 0,
    purges: 0,
    tombstonesPurged: 0,
    scopeChanges: 0,
    expiredTokens: 0,
    signIns: 0,
    staleReplays: 0,
    merged: 0,
  };
  const problems: string[] = [];
  const devices: ChaosDevice[] = [];
  try {
    await server.start();
    log('server started');
    const patient = await registerThroughApi(server, 'Patient', 'Chaos Patient');
    const caregiver = await registerThroughApi(server, 'Caregiver', 'Chaos Caregiver');
    const patientId = patient.patientId ?? '';
    const oracle = new Oracle(caregiver.caregiverId);
    log('accounts made');
    // The caregiver starts without access and is granted it in the first kill window, early in the run
    // (PGlite is single-process: care links are written while the server is down).
    oracle.grant(0, []);

    for (let index = 0; index < deviceCount; index++) {
      const byCaregiver = index === deviceCount - 1;
      const account = byCaregiver ? caregiver : patient;
      const name = byCaregiver ? 'carer-phone' : (['phone', 'laptop'][index] ?? `patient-device-${index}`);
      const network = new ChaosNetwork(
        () => server.baseURL,
        () => device.token,
        seeded(options.seed * 31 + index + 1),
      );
      const device: ChaosDevice = {
        name,
        account,
        byCaregiver,
        db: new KincareDb(`chaos-${options.seed}-${name}-${Date.now()}`, {
          indexedDB: new IDBFactory(),
          IDBKeyRange,
        }),
        network,
        token: await signIn(server, account),
        tokenExpired: false,
        needsSignIn: false,
        heardDeleted: new Set(),
      };
      device.network.rates = { ...FLAKY };
      device.network.onAnswer = (request, response) => {
        // The oracle learns each file's key from the upload's answer (the key is `upload-<blob id>`).
        const key = (response.data as { files?: { key?: unknown }[] } | null)?.files?.[0]?.key;
        if (request.url.startsWith('/upload-image') && typeof key === 'string' && request.idempotencyKey)
          oracle.uploadedKeys.set(request.idempotencyKey.replace(/^upload-/, ''), key);
      };
      await device.db.open();
      devices.push(device);
    }

    const signInAgain = async (device: ChaosDevice) => {
      if (!device.needsSignIn || !server.running) return;
      try {
        device.token = await signIn(server, device.account);
        device.tokenExpired = false;
        device.needsSignIn = false;
        counts.signIns++;
      } catch {
        // The server went down meanwhile: the device signs in when it is back.
      }
    };
    const reportedGhosts = new Set<string>();
    const pullLimit = () => 2 * (Math.ceil(oracle.creationOrder.size / pageSize) + 2) + 4;
    const sync = async (device: ChaosDevice, step: number, force: boolean, calm = false) => {
      const unauthorized = device.network.stats.unauthorized;
      device.network.beginSync(pullLimit());
      counts.syncs++;
      try {
        const result = await syncOnce(device.db, device.network.transport, {
          lockName: `chaos-${options.seed}-${device.name}`,
          force,
          pullPage: pageSize,
        });
        counts.merged += result.push.merged;
      } catch (error) {
        if (calm) problems.push(`${device.name}: a sync on a clean network threw ${String(error)}`);
      } finally {
        for (const id of device.network.endSync()) device.heardDeleted.add(id);
      }
      if (device.network.stats.unauthorized > unauthorized) device.needsSignIn = true;
      await oracle.settle(device.name, device.db, step);
      // A record a finished pull said is deleted never shows again on that device (it cannot come back).
      const ghosts = (await device.db.appointments.bulkGet([...device.heardDeleted])).flatMap((row) =>
        row ? [row.id] : [],
      );
      for (const id of ghosts) {
        if (reportedGhosts.has(`${device.name}:${id}`)) continue;
        reportedGhosts.add(`${device.name}:${id}`);
        problems.push(
          `${device.name} still shows ${id} after step ${step}, though a finished pull said it is deleted`,
        );
      }
      await signInAgain(device);
    };

    // The first kill window comes early (it grants the caregiver access); the others are spread evenly.
    const killAt = new Map<number, number>();
    const firstKill = Math.max(1, Math.floor(options.operations * 0.04));
    for (let index = 0; index < kills; index++)
      killAt.set(firstKill + Math.floor((index * (options.operations - firstKill)) / kills), index);
    let restartAt = -1;

    /**
     * Every device syncs at once and the server is SIGKILLed once a seeded number of requests have left
     * (plus a seeded delay), so it dies with requests and transactions under way; or, now and then, idle.
     * While it is down: tombstones purged (everything deleted so far), the caregiver's access changed.
     */
    const killWindow = async (step: number, index: number) => {
      const [inFlight = 0, after = 0, delay = 0, purge = 0, access = 0, which = 0, down = 0] = draws();
      if (!server.running) await server.start();
      if (inFlight < 0.8) {
        counts.killsInFlight++;
        let forwarded = 0;
        let killing: Promise<void> | null = null;
        const target = 1 + Math.floor(after * 8);
        const kill = () => {
          counts.requestsCutByKills += devices.reduce((sum, device) => sum + device.network.inFlight, 0);
          return server.kill();
        };
        const trigger = () => {
          if (++forwarded === target) killing = sleep(Math.floor(delay * 10)).then(kill);
        };
        for (const device of devices) device.network.onForward = trigger;
        await Promise.all(devices.map((device) => sync(device, step, true)));
        for (const device of devices) device.network.onForward = () => undefined;
        await (killing ?? kill());
      } else {
        await server.kill();
      }
      // Purges and access changes stay out of the last window, so the run ends with a stretch of plain
      // syncing in which a skipped tombstone or a missed change is not healed by a reset.
      // One early window always purges and a later one always takes some access away (the second and the
      // third when there are enough windows), so every run has both.
      const late = index === kills - 1 && kills > 1;
      const purgeAt = Math.min(1, kills - 2);
      const withdrawAt = Math.min(2, kills - 2);
      const purging = (options.purges ?? true) && !late && (index === purgeAt || purge < 0.6);
      const withdrawn = ACCESS_STATES.filter((state) => state.length < ALL_PERMISSIONS.length);
      const nextAccess =
        index === 0
          ? ALL_PERMISSIONS
          : !(options.scopeChanges ?? true) || late
            ? undefined
            : index === withdrawAt
              ? withdrawn[Math.floor(which * withdrawn.length)]
              : access < 0.6
                ? ACCESS_STATES[Math.floor(which * ACCESS_STATES.length)]
                : undefined;
      if (purging || nextAccess) {
        await server.withDatabase(async (db) => {
          if (purging) {
            counts.purges++;
            counts.tombstonesPurged += await purgeTombstones(db, new Date());
          }
          if (nextAccess) {
            counts.scopeChanges++;
            await writeCareLink(db, patientId, caregiver.caregiverId ?? '', nextAccess);
            oracle.grant(step + 0.5, nextAccess); // after this step's syncs, which the old access judged
          }
        });
        await server.closeDatabase();
      }
      restartAt = step + Math.floor(down * 6); // devices work offline for a few actions meanwhile
      log(
        `step ${step}: server killed${purging ? ', tombstones purged' : ''}${nextAccess ? `, caregiver may ${nextAccess.join(' ') || 'nothing'}` : ''}`,
      );
    };

    /** The records a device holds, in the order they were created, and one of them by a seeded choice. */
    const pickRecord = async (device: ChaosDevice, where: number, hot: number) => {
      const held = (await device.db.appointments.toCollection().primaryKeys()).sort(
        (a, b) =>
          (oracle.creationOrder.get(a) ?? Number.MAX_SAFE_INTEGER) -
          (oracle.creationOrder.get(b) ?? Number.MAX_SAFE_INTEGER),
      );
      // Half the time one of the newest: edits collide across devices, and merges happen.
      const pool = hot < 0.5 ? held.slice(-12) : held;
      return pool[Math.floor(where * pool.length)];
    };

    const act = async (step: number) => {
      const [who = 0, kind = 0, where = 0, field = 0, a = 0, b = 0, c = 0] = draws();
      const device = devices[Math.floor(who * devices.length)] as ChaosDevice;
      const now = new Date(CLOCK_START + step * 1000);
      const since = await Oracle.lastSeq(device.db);
      await signInAgain(device);
      if (kind < 0.26) {
        const attach = a < 0.12;
        await addAppointment(
          device.db,
          {
            patient_id: patientId,
            caregiver_id: device.byCaregiver ? caregiver.caregiverId : null,
            appointment_title: `Visit ${step} by ${device.name}`,
            appointment_date: new Date(Date.UTC(2027, 0, 1) + step * 60_000).toISOString(),
            doctor_id: null,
            location: `Room ${step}`,
            notes: '',
            status: 'scheduled',
            ...(attach ? { attachment: attachment(step) } : {}),
          },
          now,
        );
        counts.creates++;
        if (attach) counts.attachments++;
      } else if (kind < 0.64) {
        const target = await pickRecord(device, where, b);
        if (target) {
          if (a < 0.04) {
            await editAppointment(device.db, target, {}, now, attachment(step));
            counts.attachments++;
          } else {
            const name = EDITED_FIELDS[Math.floor(field * EDITED_FIELDS.length)] ?? 'notes';
            const value =
              name === 'appointment_date'
                ? new Date(Date.UTC(2028, 0, 1) + step * 60_000).toISOString()
                : `${name} ${step} ${device.name}`; // unique per operation
            await editAppointment(device.db, target, { [name]: value }, now);
          }
          counts.edits++;
        }
      } else if (kind < 0.72) {
        const target = await pickRecord(device, where, b);
        if (target) {
          await removeAppointment(device.db, target, now);
          counts.deletes++;
        }
      } else if (kind < 0.89) {
        const force = a < 0.85;
        const other = devices[Math.floor(c * devices.length)];
        if (b < 0.3 && other && other !== device) {
          counts.overlappingSyncs++;
          await Promise.all([sync(device, step, force), sync(other, step, force)]);
        } else {
          await sync(device, step, force);
        }
      } else if (kind < 0.95) {
        device.network.online = a >= 0.2;
        device.network.rates = b < 0.3 ? { ...CALM } : b < 0.8 ? { ...FLAKY } : { ...HOSTILE };
      } else if (kind < 0.975) {
        device.token = expiredToken(device.account.userId);
        device.tokenExpired = true;
        counts.expiredTokens++;
      } else {
        if (server.running && (options.staleReplays ?? true)) {
          counts.staleReplays++;
          await device.network.replayOldRequest(a);
        }
      }
      await oracle.queued(device.name, device.db, { byCaregiver: device.byCaregiver, step, since });
    };

    for (let step = 0; step < options.operations; step++) {
      if (!server.running && step >= restartAt) await server.start();
      const kill = killAt.get(step);
      if (kill !== undefined) await killWindow(step, kill);
      await act(step);
      if (step % 50 === 0) log(`step ${step}`);
    }

    // Calm: the server up, every device online on a clean network and signed in, syncing until nothing moves.
    const end = options.operations;
    if (!server.running) await server.start();
    for (const device of devices) {
      device.network.online = true;
      device.network.rates = { ...CALM };
      if (device.tokenExpired) device.needsSignIn = true;
      await signInAgain(device);
    }
    let quiet = false;
    for (let round = 0; round < 25 && !quiet; round++) {
      const sentBefore = devices.map((device) => device.network.stats.sent);
      for (const device of devices) await sync(device, end, true, true);
      const pending = await Promise.all(
        devices.map((device) => device.db.outbox.where('status').equals('pending').count()),
      );
      const sent = devices.some((device, index) => device.network.stats.sent !== sentBefore[index]);
      quiet =
        !sent && pending.every((count) => count === 0) && devices.every((device) => !device.needsSignIn);
    }
    if (!quiet)
      problems.push('the devices did not settle: they still sent changes after 25 rounds of syncing');

    await server.stop();
    const { serverRows, uploadedKeys } = await server.withDatabase(async (db) => ({
      serverRows: (await db.select().from(records).where(eq(records.patientId, patientId))).map(
        (row): ServerRecord => ({
          id: row.id,
          patientId: row.patientId,
          version: row.version,
          deleted: row.deletedAt !== null,
          data: row.data,
          fieldChangedAt: row.fieldChangedAt,
        }),
      ),
      uploadedKeys: new Set((await db.select({ key: uploads.key }).from(uploads)).map((row) => row.key)),
    }));
    await server.closeDatabase();

    problems.push(...oracle.checkServer(serverRows));
    for (const row of serverRows) {
      const key = row.deleted ? null : row.data.attachment_key;
      if (typeof key !== 'string') continue;
      if (!uploadedKeys.has(key) || !existsSync(join(server.dataDir, 'files', key)))
        problems.push(`${row.id} points at a file the server does not have: ${key}`);
    }
    const mayRead = oracle.finalPermissions().includes('ReadAppointment');
    for (const device of devices) {
      const visible = !device.byCaregiver || mayRead ? serverRows : [];
      const rows = await device.db.appointments.toArray();
      problems.push(...oracle.checkReplica(device.name, rows, visible));
      const failed = await device.db.outbox.where('status').equals('failed').toArray();
      const keptFiles = new Set(failed.flatMap((entry) => entry.blobIds ?? []));
      const files = await device.db.blobs.toCollection().primaryKeys();
      const stale = files.filter((id) => !keptFiles.has(id));
      if (stale.length > 0)
        problems.push(`${device.name} keeps ${stale.length} files the server already has`);
      if (device.network.stuckPull) problems.push(`${device.name}: ${device.network.stuckPull}`);
      const errors = device.network.stats.real5xx.filter((line) => line.startsWith('500'));
      if (errors.length > 0)
        problems.push(
          `${device.name}: the server answered 500 (always a bug): ${errors.slice(0, 3).join('; ')}`,
        );
    }
    for (const crash of server.crashes) problems.push(`the server process ${crash}`);
    if (process.env.CHAOS_TRACE) {
      // The whole story of the records named in the first problems, with the server's field times.
      const named = new Set(problems.slice(0, 3).flatMap((problem) => problem.match(UUID) ?? []));
      for (const id of named) {
        const row = serverRows.find((candidate) => candidate.id === id);
        problems.push(`trace ${id}: server ${JSON.stringify(row ?? null)}`);
        problems.push(...oracle.historyOf(id).map((line) => `trace ${id}: ${line}`));
      }
    }
    if (problems.length > 0 && server.errors.length > 0)
      problems.push(`server error log: ${server.errors.slice(0, 3).join(' | ')}`);

    const network = sumStats(devices.map((device) => device.network.stats));
    return {
      seed: options.seed,
      database: server.driver,
      operations: options.operations,
      devices: deviceCount,
      ...counts,
      restarts: server.history.kills,
      ...oracle.counts(),
      serverRecords: serverRows.filter((row) => !row.deleted).length,
      network,
      problemCount: problems.filter((problem) => !problem.startsWith('trace ')).length,
      problems: process.env.CHAOS_TRACE ? problems : problems.slice(0, PROBLEMS_SHOWN),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const device of devices) device.db.close();
    await server.close();
  }
}

function attachment(step: number) {
  return { blob: new Blob([Uint8Array.from(TINY_PNG)], { type: 'image/png' }), name: `letter-${step}.png` };
}

/** The caregiver's care link as an operator (or the patient's sharing screen) would leave it. */
async function writeCareLink(
  db: Database,
  patientId: string,
  caregiverId: string,
  permissions: readonly Permission[],
): Promise<void> {
  const link = and(eq(careLinks.patientId, patientId), eq(careLinks.caregiverId, caregiverId));
  await db.delete(careLinks).where(link);
  if (permissions.length > 0)
    await db.insert(careLinks).values({ patientId, caregiverId, permissions: [...permissions] });
}

function sumStats(all: NetworkStats[]): ChaosReport['network'] {
  const total: ChaosReport['network'] = {
    requests: 0,
    forwarded: 0,
    sent: 0,
    offline: 0,
    lostAnswers: 0,
    duplicates: 0,
    staleReplays: 0,
    injected5xx: 0,
    injected429: 0,
    replacedWith500: 0,
    unauthorized: 0,
    real5xx: 0,
    pulls: 0,
    resets: 0,
    maxPullsPerSync: 0,
  };
  for (const stats of all) {
    for (const key of Object.keys(total) as (keyof typeof total)[]) {
      if (key === 'real5xx') total.real5xx += stats.real5xx.length;
      else if (key === 'maxPullsPerSync') total.maxPullsPerSync = Math.max(total.maxPullsPerSync, stats[key]);
      else total[key] += stats[key];
    }
  }
  return total;
}
