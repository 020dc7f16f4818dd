// The planted bugs of `npm run test:mutants`: each a textual patch of the sync modules (file, exact search
// text, replacement), planted alone into a copy of the repository. Counters live on globalThis so a
// patch is one hunk wherever the code around it moves. The chaos test alone must catch every one.

export const MUTANTS = [
  {
    name: 'server drops every 50th edit',
    detail: 'answers success with the record as it was, without storing the edit',
    patches: [
      {
        file: 'src/server/services/records.ts',
        search: `  refuseUnstorableText(input.patch);
  let fresh: RecordRow | undefined = current;`,
        replace: `  refuseUnstorableText(input.patch);
  const planted = globalThis as { plantedEdits?: number };
  planted.plantedEdits = (planted.plantedEdits ?? 0) + 1;
  if (planted.plantedEdits % 50 === 0) return { row: current, merged: false };
  let fresh: RecordRow | undefined = current;`,
      },
    ],
  },
  {
    name: 'server discards every edit made on a stale base version',
    detail: 'an edit whose base_version is older than the record answers "merged" and changes nothing',
    patches: [
      {
        file: 'src/server/services/records.ts',
        search: `  const stale = input.baseVersion !== undefined && input.baseVersion < fresh.version;`,
        replace: `  const stale = input.baseVersion !== undefined && input.baseVersion < fresh.version;
  if (stale) return { row: fresh, merged: true };`,
      },
    ],
  },
  {
    name: 'client drops 20% of queued edits',
    detail: 'every fifth queued edit it comes to leaves the outbox without being sent',
    patches: [
      {
        file: 'src/local/sync-push-batch.ts',
        search: `  for (const entry of pending) {
    const record = shadowKey(entry.resource, entry.entityId);`,
        replace: `  for (const entry of pending) {
    const planted = globalThis as { plantedDrops?: number };
    if (entry.op === 'update' && (planted.plantedDrops = (planted.plantedDrops ?? 0) + 1) % 5 === 0) {
      await db.outbox.delete(entry.seq as number);
      continue;
    }
    const record = shadowKey(entry.resource, entry.entityId);`,
      },
    ],
  },
  {
    name: 'client skips one pulled tombstone',
    detail:
      'the 25th tombstone of a record the device shows, pulled outside a reset (all devices of the run count together), is not applied',
    patches: [
      {
        file: 'src/local/sync-pull.ts',
        search: `      if (change.deleted || !change.data) batch.remove.push(change.id);`,
        replace: `      const planted = globalThis as { plantedTombstones?: number };
      if (
        change.deleted &&
        !seen &&
        (await db.viewOf(change.resource).get(change.id)) &&
        (planted.plantedTombstones = (planted.plantedTombstones ?? 0) + 1) === 25
      )
        continue;
      if (change.deleted || !change.data) batch.remove.push(change.id);`,
      },
    ],
  },
  {
    name: 'client drops a change on a 5xx',
    detail: 'a 5xx answer rolls the change back and marks it failed, as if the server had refused it',
    patches: [
      {
        file: 'src/local/sync-push.ts',
        search: `  if (verdict === 'retry') {
    await scheduleRetry(db, entry, now, forced);`,
        replace: `  if (verdict === 'retry' && answer.status >= 500) {
    const message = 'The server failed (5xx).';
    await reject(db, entry, message, { status: answer.status });
    outcome.rejected.push({ entry, message });
    return null;
  }
  if (verdict === 'retry') {
    await scheduleRetry(db, entry, now, forced);`,
      },
    ],
  },
  {
    name: "server's pull pages are off by one",
    detail:
      'the next page starts after the first row it should have held: one row skipped at each page boundary',
    patches: [
      {
        file: 'src/server/services/sync-pull.ts',
        search: `      token: encodeToken({ position: next, start, scope: fingerprint }),`,
        replace: `      token: encodeToken({ position: snapshot.rows[limit]?.version ?? next, start, scope: fingerprint }),`,
      },
    ],
  },
  {
    name: 'server acks a create without storing it',
    detail: 'every 20th create answers 201 with the record it would have stored, and stores nothing',
    patches: [
      {
        file: 'src/server/services/records.ts',
        search: `  if (options.createBatch) return options.createBatch.add(input);`,
        replace: `  const planted = globalThis as { plantedCreates?: number };
  planted.plantedCreates = (planted.plantedCreates ?? 0) + 1;
  if (planted.plantedCreates % 20 === 0) {
    const stamp = new Date();
    return {
      id: input.id,
      resource: input.resource,
      patientId: input.patientId,
      version: 1,
      data: input.fields,
      fieldChangedAt: {},
      createdBy: input.createdBy,
      deletedAt: null,
      createdAt: stamp,
      updatedAt: stamp,
    };
  }
  if (options.createBatch) return options.createBatch.add(input);`,
      },
    ],
  },
  {
    name: 'client ignores a pulled delete',
    detail: 'a pulled tombstone of a record with changes queued on the device is ignored (its copy stays)',
    patches: [
      {
        file: 'src/local/sync-pull.ts',
        search: `      if (shadows[index]) {`,
        replace: `      if (shadows[index] && change.deleted) continue;
      if (shadows[index]) {`,
      },
    ],
  },
];
