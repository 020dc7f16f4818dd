// Bundled into the benchmark page (see pull-chromium.ts): the real engine's pull, and a raw IndexedDB
// bulk write of the same rows to compare with.
import { KincareDb } from '../../src/local/db';
import { pull } from '../../src/local/sync-pull';
import { createTransport } from '../../src/local/sync-transport';

async function runPull(token: string, pageSize: number) {
  const db = new KincareDb(`bench-pull-${Date.now()}`);
  await db.open();
  const transport = createTransport({ baseURL: '/api', getToken: () => token, adapter: 'fetch' });
  const start = performance.now();
  const { applied } = await pull(db, transport, pageSize);
  const pullMs = performance.now() - start;
  const rows = await db.appointments.toArray();
  // Dexie's own bulk write of the same rows, for reference.
  const dexieDb = new KincareDb(`bench-dexie-${Date.now()}`);
  await dexieDb.open();
  const dexieStart = performance.now();
  await dexieDb.appointments.bulkPut(rows);
  const dexieMs = performance.now() - dexieStart;
  db.close();
  dexieDb.close();
  return { applied, pullMs, dexieMs, rows };
}

function rawWrite(rows: unknown[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(`bench-raw-${Date.now()}`, 1);
    open.onupgradeneeded = () => {
      // The same store shape as the replica's table: primary key id, indexes patient_id and appointment_date.
      const store = open.result.createObjectStore('appointments', { keyPath: 'id' });
      store.createIndex('patient_id', 'patient_id');
      store.createIndex('appointment_date', 'appointment_date');
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const database = open.result;
      const start = performance.now();
      const tx = database.transaction('appointments', 'readwrite');
      const store = tx.objectStore('appointments');
      for (const row of rows) store.put(row);
      tx.oncomplete = () => {
        database.close();
        resolve(performance.now() - start);
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

async function compare(token: string, pageSize: number) {
  const { applied, pullMs, dexieMs, rows } = await runPull(token, pageSize);
  const rawMs = await rawWrite(rows);
  return { applied, pullMs, dexieMs, rawMs };
}

(globalThis as unknown as { kincareBench: unknown }).kincareBench = { compare };
