import { addAppointment, editAppointment, removeAppointment } from '../../src/local/appointments';
import { records } from '../../src/server/db/schema';
import { linkCaregiver, makeAccount, makeDevice, startServer, type Device } from './harness';

// Several devices (a patient's phone and laptop, a caregiver's phone) make random creates, edits and
// deletes while the network drops, answers get lost, requests arrive twice or late and out of order,
// and the server restarts. At the end every device syncs until quiet, and the run checks that nothing
// was lost, nothing was duplicated, and every replica equals the server.

export type ChaosOptions = { devices: number; operations: number; restarts: number; seed: number };
export type ChaosReport = {
  operations: number;
  creates: number;
  edits: number;
  deletes: number;
  restarts: number;
  lost: number;
  duplicated: number;
  unexpected: number;
  replicasDiffering: number;
  refusedEdits: number;
  serverRecords: number;
  /** The first few differences found, to debug a failing seed. */
  problems: string[];
  seconds: number;
};

/** A small seeded generator (mulberry32) so a failing run can be replayed with its seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const comparable = (row: Record<string, unknown>) => {
  const { created_at: _c, updated_at: _u, ...rest } = row;
  return JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((key) => [key, rest[key]]),
  );
};

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const server = await startServer();
  try {
    const patient = await makeAccount(server, 'Patient');
    const caregiver = await makeAccount(server, 'Caregiver');
    await linkCaregiver(server, patient, caregiver, [
      'ReadAppointment',
      'AddAppointment',
      'EditAppointment',
      'DeleteAppointment',
    ]);
    const devices: Device[] = [];
    for (let index = 0; index < options.devices; index++) {
      const account = index === options.devices - 1 && options.devices > 2 ? caregiver : patient;
      devices.push(await makeDevice(server, account, `device-${index}`, () => account.token, random));
    }
    const created = new Set<string>();
    const deleted = new Set<string>();
    const counts = { creates: 0, edits: 0, deletes: 0, restarts: 0 };
    const restartAt = new Set(
      Array.from({ length: options.restarts }, (_, index) =>
        Math.floor(((index + 1) * options.operations) / (options.restarts + 1)),
      ),
    );
    let inFlight: Promise<unknown>[] = [];

    for (let op = 0; op < options.operations; op++) {
      const device = pick(devices) as Device;
      const roll = random();
      if (roll < 0.3) {
        const id = await addAppointment(device.db, {
          patient_id: patient.patientId ?? '',
          caregiver_id: null,
          appointment_title: `Visit ${op}`,
          appointment_date: new Date(Date.UTC(2027, 0, 1 + (op % 300), 9, 0)).toISOString(),
          doctor_id: null,
          location: '',
          notes: '',
          status: 'scheduled',
        });
        created.add(id);
        counts.creates++;
      } else if (roll < 0.75) {
        const target = pick(await device.db.appointments.toCollection().primaryKeys());
        if (target) {
          const field = pick(['appointment_title', 'location', 'notes', 'status'] as const);
          const value =
            field === 'status'
              ? (pick(['scheduled', 'completed', 'cancelled'] as const) ?? 'scheduled')
              : `${field} ${op}`; // unique per operation
          await editAppointment(device.db, target, { [field as string]: value });
          counts.edits++;
        }
      } else if (roll < 0.83) {
        const target = pick(await device.db.appointments.toCollection().primaryKeys());
        if (target) {
          await removeAppointment(device.db, target);
          deleted.add(target);
          counts.deletes++;
        }
      } else if (roll < 0.95) {
        inFlight.push(device.sync(random() < 0.5).catch(() => undefined)); // syncs of different devices overlap
      } else if (roll < 0.98) {
        device.network.online = !device.network.online;
        device.network.loseAnswerRate = random() * 0.2;
        device.network.duplicateRate = random() * 0.2;
        device.network.failRate = random() * 0.1;
      } else {
        inFlight.push(device.network.replayOldRequest());
      }
      if (inFlight.length >= options.devices * 2) {
        await Promise.all(inFlight);
        inFlight = [];
      }
      if (restartAt.has(op)) {
        const restart = server.restart(); // mid-flight: requests under way fail and are retried
        await Promise.all([...inFlight, restart]);
        inFlight = [];
        counts.restarts++;
      }
    }
    await Promise.all(inFlight);

    // Calm: every device back online on a clean network, syncing until nothing moves.
    for (const device of devices)
      Object.assign(device.network, { online: true, loseAnswerRate: 0, duplicateRate: 0, failRate: 0 });
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(devices.map((device) => device.sync(true)));
      const pending = await Promise.all(
        devices.map((device) => device.db.outbox.where('status').equals('pending').count()),
      );
      if (
        results.every((result) => result.ok && result.push.sent === 0) &&
        pending.every((count) => count === 0)
      )
        break;
    }
    for (const device of devices) await device.sync(true);

    const rows = (await server.database().db.select().from(records)).filter(
      (row) => row.patientId === patient.patientId && !row.deletedAt,
    );
    const onServer = new Map(rows.map((row) => [row.id, row]));
    const expected = [...created].filter((id) => !deleted.has(id));
    const lost = expected.filter((id) => !onServer.has(id)).length;
    const unexpected = rows.filter((row) => !created.has(row.id) || deleted.has(row.id)).length;
    const titles = rows.map((row) => String(row.data.appointment_title));
    let replicasDiffering = 0;
    let refusedEdits = 0;
    const problems: string[] = [];
    for (const device of devices) {
      const local = await device.db.appointments.toArray();
      const differences = local.filter((row) => {
        const server = onServer.get(row.id);
        return (
          !server ||
          server.version !== row.version ||
          comparable({
            ...server.data,
            id: server.id,
            patient_id: server.patientId,
            version: server.version,
          }) !== comparable(row)
        );
      });
      if (local.length !== rows.length || differences.length > 0) {
        replicasDiffering++;
        problems.push(
          `${device.name}: ${local.length} local vs ${rows.length} on the server; differing: ${JSON.stringify(differences.slice(0, 2))} server: ${JSON.stringify(differences.slice(0, 2).map((row) => onServer.get(row.id)))}`,
        );
      }
      const failed = await device.db.outbox.where('status').equals('failed').toArray();
      refusedEdits += failed.length;
      const wrongRefusals = failed.filter((entry) => entry.op !== 'update' || !deleted.has(entry.entityId)); // only edits of deleted records may be refused
      if (wrongRefusals.length > 0) {
        replicasDiffering++;
        problems.push(`${device.name}: refused ${JSON.stringify(wrongRefusals.slice(0, 2))}`);
      }
      device.close();
    }
    return {
      operations: options.operations,
      ...counts,
      lost,
      // Every create and every title edit writes a title unique to its operation: two live records with the
      // same title mean one change was applied to two records (a create replayed under a new id, say).
      duplicated: titles.length - new Set(titles).size,
      unexpected,
      replicasDiffering,
      refusedEdits,
      serverRecords: rows.length,
      problems,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await server.close();
  }
}
