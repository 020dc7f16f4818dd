// Benchmark: replay of 1,000 queued mutations by the sync engine (Dexie on fake-indexeddb, real server
// over HTTP), beside the same calls sent one by one by a plain loop, in the same process.
import axios from 'axios';
import { addAppointment } from '../../src/local/appointments';
import { push } from '../../src/local/sync-push';
import { makeAccount, makeDevice, startServer } from '../sync/harness';

const MUTATIONS = Number(process.env.BENCH_MUTATIONS ?? 1000);

const visit = (patientId: string, index: number) => ({
  patient_id: patientId,
  caregiver_id: null,
  appointment_title: `Visit ${index}`,
  appointment_date: new Date(Date.UTC(2027, 0, 1, 9, 0) + index * 1800_000).toISOString(),
  doctor_id: null,
  location: 'Clinic',
  notes: '',
  status: 'scheduled' as const,
});

const server = await startServer();
try {
  const patient = await makeAccount(server, 'Patient');
  const patientId = patient.patientId ?? '';
  const client = axios.create({
    baseURL: server.baseURL,
    headers: { Authorization: `Bearer ${patient.token}` },
  });
  // Warm up both paths (JIT, connection, first queries).
  for (let index = 0; index < 20; index++) {
    await client.post(
      '/appointments',
      { id: crypto.randomUUID(), ...visit(patientId, index) },
      { headers: { 'Idempotency-Key': crypto.randomUUID() } },
    );
  }

  const plainStart = performance.now();
  for (let index = 0; index < MUTATIONS; index++) {
    await client.post(
      '/appointments',
      { id: crypto.randomUUID(), ...visit(patientId, index), changed_at: Date.now() },
      { headers: { 'Idempotency-Key': crypto.randomUUID() } },
    );
  }
  const plainMs = performance.now() - plainStart;

  const device = await makeDevice(server, patient, 'bench');
  device.network.online = false;
  for (let index = 0; index < MUTATIONS; index++) await addAppointment(device.db, visit(patientId, index));
  device.network.online = true;
  const engineStart = performance.now();
  const outcome = await push(device.db, device.network.transport, { force: true });
  const engineMs = performance.now() - engineStart;
  if (outcome.sent !== MUTATIONS || (await device.db.outbox.count()) !== 0)
    throw new Error(`replay incomplete: ${JSON.stringify(outcome)}`);
  device.close();

  console.log(
    `replay of ${MUTATIONS} queued mutations: ${engineMs.toFixed(0)} ms, ${((MUTATIONS / engineMs) * 1000).toFixed(0)} mutations/s`,
  );
  console.log(
    `plain loop of the same ${MUTATIONS} calls: ${plainMs.toFixed(0)} ms, ${((MUTATIONS / plainMs) * 1000).toFixed(0)} calls/s`,
  );
  console.log(
    `ratio engine/plain: ${(engineMs / plainMs).toFixed(2)} (the engine also writes each answer to the replica in a transaction)`,
  );
} finally {
  await server.close();
}
