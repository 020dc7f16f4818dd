import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MEDICAL_HISTORY_MESSAGES as M, medicalHistoryId } from '../../src/domain/medical-history';
import { records } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// The medical history on the real app: GET answers an empty history before anything is
// stored, PUT creates and changes only the fields sent, two devices' edits of different fields both stay,
// the same record started on two devices is one record, the batched replay (create and update) runs the
// same handler; every field's rule with its message; caregivers read with ReadMedicalHistory and never write.
// Every entry is stored as a field of its own (`<list>:<id>`, null once removed): devices send only the
// entries they changed, and concurrent changes of different entries all stay (see "entry fields" below).

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Patient');
});

type History = {
  id: string;
  patient_id: string;
  version: number;
  conditions: { id: string; name: string; onset: string | null; status: string; notes: string }[];
  allergies: { id: string; substance: string; reaction: string; severity: string }[];
  surgeries: { id: string; procedure: string; date: string | null }[];
  family_history: { id: string; relative: string; condition: string }[];
  immunizations: { id: string; vaccine: string; date: string | null }[];
  lifestyle: { smoking: string; alcohol: string; exercise: string; notes: string };
};

const read = (person: Person, patientId?: string) =>
  as(ctx, person, {
    method: 'GET',
    url: `/api/medical-history${patientId ? `?patient=${patientId}` : ''}`,
  });
const put = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'PUT', url: '/api/medical-history', payload: body });
const push = (person: Person, changes: Record<string, unknown>[]) =>
  as(ctx, person, { method: 'POST', url: '/api/sync/push', payload: { changes } });
/** The history with each entry's added_at checked (ISO, set when it was added) and left out. */
function withoutAddedAt(history: History): History {
  const bare = { ...history } as Record<string, unknown>;
  for (const list of ['conditions', 'allergies', 'surgeries', 'family_history', 'immunizations'])
    bare[list] = (history[list as keyof History] as { added_at?: string }[]).map(({ added_at, ...entry }) => {
      expect(Number.isNaN(Date.parse(added_at ?? '')), `${list} added_at`).toBe(false);
      return entry;
    });
  return bare as History;
}
const historyOf = async (person: Person, patientId?: string): Promise<History> => {
  const response = await read(person, patientId);
  expect(response.statusCode, response.body).toBe(200);
  return withoutAddedAt(response.json<{ data: History }>().data);
};
const messageOf = (response: { json: () => unknown }) => (response.json() as { message: string }).message;

const asthma = () => ({ id: randomUUID(), name: 'Asthma', onset: '2010', status: 'managed', notes: '' });
const penicillin = () => ({
  id: randomUUID(),
  substance: 'Penicillin',
  reaction: 'Hives',
  severity: 'severe',
});

describe('reading and saving', () => {
  it('answers an empty history with the record id before anything is stored', async () => {
    const history = await historyOf(patient);
    expect(history).toEqual({
      id: await medicalHistoryId(patient.patientId ?? ''),
      patient_id: patient.patientId,
      version: 0,
      conditions: [],
      allergies: [],
      surgeries: [],
      family_history: [],
      immunizations: [],
      lifestyle: { smoking: 'unknown', alcohol: 'unknown', exercise: 'unknown', notes: '' },
      // The check-ins' mood screening is not shared with caregivers until the patient turns it on.
      share_mood_screening: false,
    });
  });

  it('creates with PUT, then changes only the fields sent', async () => {
    const condition = asthma();
    const created = await put(patient, { conditions: [condition] });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ success: true, message: M.saved, merged: false });
    const first = withoutAddedAt(created.json<{ data: History }>().data);
    expect(first.id).toBe(await medicalHistoryId(patient.patientId ?? ''));
    expect(first.version).toBeGreaterThan(0);
    expect(first.conditions).toEqual([condition]);

    const allergy = penicillin();
    const changed = await put(patient, {
      allergies: [allergy],
      lifestyle: { smoking: 'former', alcohol: 'occasional', exercise: 'light', notes: 'Walks daily' },
      base_version: first.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const history = await historyOf(patient);
    expect(history.conditions).toEqual([condition]); // not sent, kept
    expect(history.allergies).toEqual([allergy]);
    expect(history.lifestyle).toEqual({
      smoking: 'former',
      alcohol: 'occasional',
      exercise: 'light',
      notes: 'Walks daily',
    });
    expect(history.version).toBeGreaterThan(first.version);
    // Defaults fill what an entry leaves out; text is trimmed.
    await put(patient, { surgeries: [{ id: randomUUID(), procedure: '  Appendectomy ' }] });
    expect((await historyOf(patient)).surgeries).toMatchObject([
      { procedure: 'Appendectomy', date: null, notes: '' },
    ]);
  });

  it('keeps two devices’ edits of different fields made on the same version', async () => {
    const created = await put(patient, { conditions: [asthma()] });
    const base = created.json<{ data: History }>().data.version;
    const allergy = penicillin();
    const vaccine = { id: randomUUID(), vaccine: 'Influenza', date: '2025-10' };
    // Phone and laptop both saw `base`; each changed one field.
    const phone = await put(patient, {
      allergies: [allergy],
      base_version: base,
      changed_at: Date.now() - 2000,
    });
    const laptop = await put(patient, {
      immunizations: [vaccine],
      base_version: base,
      changed_at: Date.now() - 1000,
    });
    expect(phone.statusCode, phone.body).toBe(200);
    expect(laptop.statusCode, laptop.body).toBe(200);
    expect(laptop.json()).toMatchObject({ merged: true });
    const history = await historyOf(patient);
    expect(history.allergies).toEqual([allergy]);
    expect(history.immunizations).toEqual([vaccine]);
    expect(history.conditions.map((condition) => condition.name)).toEqual(['Asthma']);
    // The same field edited on both: the later edit wins, whichever arrives last.
    const later = [{ ...allergy, severity: 'life_threatening' }];
    await put(patient, { allergies: later, base_version: base, changed_at: Date.now() - 500 });
    await put(patient, { allergies: [], base_version: base, changed_at: Date.now() - 5000 });
    expect((await historyOf(patient)).allergies).toEqual(later);
  });

  it('writes one record when two devices start the history offline', async () => {
    const id = await medicalHistoryId(patient.patientId ?? '');
    const condition = asthma();
    const allergy = penicillin();
    // The tablet's create was made first but arrives last: it still only adds what it wrote.
    const phone = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'create',
        id,
        payload: { patient_id: patient.patientId, conditions: [condition], changed_at: Date.now() - 1000 },
      },
    ]);
    const tablet = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'create',
        id,
        payload: { patient_id: patient.patientId, allergies: [allergy], changed_at: Date.now() - 3000 },
      },
    ]);
    // The first create finds nothing to merge with; the second says it was combined with the first.
    expect(phone.json().results[0]).toMatchObject({ status: 200, body: { merged: false } });
    expect(tablet.json().results[0]).toMatchObject({ status: 200, body: { merged: true } });
    let history = await historyOf(patient);
    expect(history.id).toBe(id);
    expect(history.conditions).toEqual([condition]);
    expect(history.allergies).toEqual([allergy]);
    // A third device's create of a field, made before the phone's edit of it, does not undo that edit.
    const stale = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'create',
        id,
        payload: { conditions: [], changed_at: Date.now() - 5000 },
      },
    ]);
    expect(stale.json().results[0]).toMatchObject({ status: 200 });
    history = await historyOf(patient);
    expect(history.conditions).toEqual([condition]);
  });

  it('applies every create of a batch to a history that exists already, none over another', async () => {
    const id = await medicalHistoryId(patient.patientId ?? '');
    await put(patient, { lifestyle: { smoking: 'never' } });
    const condition = asthma();
    const allergy = penicillin();
    const vaccine = { id: randomUUID(), vaccine: 'Tetanus', date: null };
    const create = (payload: Record<string, unknown>) => ({
      idempotency_key: `mh-${randomUUID()}`,
      resource: 'medical_history',
      op: 'create',
      id,
      payload: { ...payload, changed_at: Date.now() },
    });
    const batch = await push(patient, [
      create({ conditions: [condition] }),
      create({ allergies: [allergy] }),
      create({ immunizations: [vaccine] }),
    ]);
    expect(batch.json().results.map((result: { status: number }) => result.status)).toEqual([200, 200, 200]);
    const history = await historyOf(patient);
    expect(history.conditions).toEqual([condition]);
    expect(history.allergies).toEqual([allergy]);
    expect(history.immunizations).toEqual([vaccine]);
    expect(history.lifestyle.smoking).toBe('never');
  });

  it('replays a batch of a create and queued edits of the record, then an update with its base', async () => {
    const id = await medicalHistoryId(patient.patientId ?? '');
    const condition = asthma();
    const allergy = penicillin();
    const now = Date.now();
    const change = (payload: Record<string, unknown>) => ({
      idempotency_key: `mh-${randomUUID()}`,
      resource: 'medical_history',
      op: 'create',
      id,
      payload: { patient_id: patient.patientId, ...payload },
    });
    // Three edits made offline on one device go in one batch: none of them may be lost.
    const batch = await push(patient, [
      change({ conditions: [condition], changed_at: now - 3000 }),
      change({ conditions: [condition], allergies: [allergy], changed_at: now - 2000 }),
      change({
        conditions: [condition],
        allergies: [allergy],
        lifestyle: { smoking: 'never', alcohol: 'none', exercise: 'active', notes: '' },
        changed_at: now - 1000,
      }),
    ]);
    expect(batch.statusCode, batch.body).toBe(200);
    const results = batch.json<{ results: { status: number; body: { data: History } }[] }>().results;
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    // Each built on the one before (the same device): nothing of another device's to report.
    expect(results.map((result) => (result.body as { merged?: boolean }).merged)).toEqual([
      false,
      false,
      false,
    ]);
    const version = results[2]?.body.data.version ?? 0;
    let history = await historyOf(patient);
    expect(history.conditions).toEqual([condition]);
    expect(history.allergies).toEqual([allergy]);
    expect(history.lifestyle.exercise).toBe('active');

    const updated = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'update',
        id,
        base_version: version,
        payload: { conditions: [], changed_at: Date.now() },
      },
    ]);
    expect(updated.json().results[0]).toMatchObject({ status: 200, body: { merged: false } });
    history = await historyOf(patient);
    expect(history.conditions).toEqual([]);
    expect(history.allergies).toEqual([allergy]);
    // A delete is refused with a message; the history stays.
    const deleted = await push(patient, [
      { idempotency_key: `mh-${randomUUID()}`, resource: 'medical_history', op: 'delete', id },
    ]);
    expect(deleted.json().results[0]).toMatchObject({ status: 400, body: { message: M.notDeletable } });
    expect((await historyOf(patient)).allergies).toEqual([allergy]);
  });
});

describe('entry fields', () => {
  const recordId = () => medicalHistoryId(patient.patientId ?? '');
  /** A device's queued change: only the entries it changed, each its own field. */
  const change = async (op: 'create' | 'update', payload: Record<string, unknown>, base?: number) => ({
    idempotency_key: `mh-${randomUUID()}`,
    resource: 'medical_history',
    op,
    id: await recordId(),
    ...(base === undefined ? {} : { base_version: base }),
    payload,
  });
  const pushOne = async (item: Record<string, unknown>) => {
    const response = await push(patient, [item]);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ results: { status: number; body: { data: Record<string, unknown> } }[] }>()
      .results[0];
  };
  const storedData = async () => {
    const [row] = await ctx.database.db
      .select()
      .from(records)
      .where(eq(records.id, await recordId()));
    return row?.data ?? {};
  };
  /** Both devices saw the history at this version. */
  const seen = async (body: Record<string, unknown>) =>
    (await put(patient, body)).json<{ data: History }>().data.version;

  it.each([
    ['create', 'the phone first'],
    ['create', 'the tablet first'],
    ['update', 'the phone first'],
    ['update', 'the tablet first'],
  ] as const)('keeps both allergies two devices added offline (%s, %s)', async (op, order) => {
    const base = op === 'update' ? await seen({ lifestyle: { smoking: 'never' } }) : undefined;
    const [peanuts, latex] = [
      { ...penicillin(), substance: 'Peanuts' },
      { ...penicillin(), substance: 'Latex' },
    ];
    const phone = await change(
      op,
      { [`allergies:${peanuts.id}`]: peanuts, changed_at: Date.now() - 2000 },
      base,
    );
    const tablet = await change(
      op,
      { [`allergies:${latex.id}`]: latex, changed_at: Date.now() - 1000 },
      base,
    );
    for (const item of order === 'the phone first' ? [phone, tablet] : [tablet, phone])
      expect((await pushOne(item))?.status).toBe(200);
    const names = (await historyOf(patient)).allergies.map((allergy) => allergy.substance).sort();
    expect(names).toEqual(['Latex', 'Peanuts']);
  });

  it('keeps a removal of one entry and an edit of another made on the same version', async () => {
    const [peanuts, latex] = [
      { ...penicillin(), substance: 'Peanuts' },
      { ...penicillin(), substance: 'Latex' },
    ];
    const base = await seen({ allergies: [peanuts, latex] });
    const milder = { ...latex, severity: 'mild' };
    await pushOne(
      await change('update', { [`allergies:${peanuts.id}`]: null, changed_at: Date.now() - 1000 }, base),
    );
    const edit = await pushOne(await change('update', { [`allergies:${latex.id}`]: milder }, base));
    expect(edit?.body).toMatchObject({ merged: true });
    expect((await historyOf(patient)).allergies).toEqual([milder]);
    // The removal is kept as the entry's tombstone, so it merges per entry too.
    expect(await storedData()).toMatchObject({ [`allergies:${peanuts.id}`]: null });
  });

  it.each(['the later edit first', 'the later edit last'])(
    'keeps the later edit of one entry edited on two devices, arriving with %s',
    async (order) => {
      const allergy = penicillin();
      const base = await seen({ allergies: [allergy] });
      const later = await change(
        'update',
        {
          [`allergies:${allergy.id}`]: { ...allergy, severity: 'life_threatening' },
          changed_at: Date.now() - 1000,
        },
        base,
      );
      const earlier = await change(
        'update',
        { [`allergies:${allergy.id}`]: { ...allergy, severity: 'mild' }, changed_at: Date.now() - 3000 },
        base,
      );
      for (const item of order === 'the later edit first' ? [later, earlier] : [earlier, later])
        expect((await pushOne(item))?.status).toBe(200);
      expect((await historyOf(patient)).allergies.map((entry) => entry.severity)).toEqual([
        'life_threatening',
      ]);
    },
  );

  it('takes a whole list by REST as "the list is now exactly this", answering lists', async () => {
    const [a, b, c] = [
      penicillin(),
      { ...penicillin(), substance: 'Latex' },
      { ...penicillin(), substance: 'Dust' },
    ];
    await put(patient, { allergies: [a, b] });
    const addedAt = (await read(patient)).json<{ data: { allergies: { added_at: string }[] } }>().data
      .allergies[1]?.added_at;
    const headers = { 'idempotency-key': `mh-${randomUUID()}` };
    const call = () =>
      as(ctx, patient, {
        method: 'PUT',
        url: '/api/medical-history',
        headers,
        payload: { allergies: [b, c] },
      });
    const saved = await call();
    expect(saved.statusCode, saved.body).toBe(200);
    // REST answers the assembled lists (fresh and replayed alike), never the stored entry fields.
    for (const answer of [saved, await call()]) {
      const data = answer.json<{ data: History }>().data;
      expect(Object.keys(data).filter((field) => field.includes(':'))).toEqual([]);
      expect(withoutAddedAt(data).allergies).toEqual([b, c]);
    }
    const history = (await read(patient)).json<{ data: { allergies: { id: string; added_at: string }[] } }>()
      .data;
    expect(history.allergies.map((entry) => entry.id)).toEqual([b.id, c.id]);
    expect(history.allergies[0]?.added_at).toBe(addedAt); // b kept when it was added
    expect(await storedData()).toMatchObject({ [`allergies:${a.id}`]: null });
    await put(patient, { allergies: [] });
    expect((await historyOf(patient)).allergies).toEqual([]);
  });

  it('answers a device the record as stored, and orders each list by added_at, then id', async () => {
    const [first, second, third] = [
      '2024-01-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
    ].map((added_at, index) => ({ ...asthma(), name: `C${index}`, added_at }));
    const payload = Object.fromEntries(
      [third, first, second].map((entry) => [`conditions:${entry?.id}`, entry]),
    );
    const answer = await pushOne(await change('create', { ...payload, changed_at: Date.now() }));
    expect(answer?.status).toBe(200);
    expect(answer?.body.data).toMatchObject(payload);
    expect(answer?.body.data).not.toHaveProperty('conditions');
    const tied = [second, third].map((entry) => entry?.id ?? '').sort();
    expect((await historyOf(patient)).conditions.map((entry) => entry.id)).toEqual([first?.id, ...tied]);
  });

  it('refuses a save that takes a list past 100 live entries, and stores none of it', async () => {
    const many = Array.from({ length: 100 }, () => ({ id: randomUUID(), vaccine: 'Flu', date: null }));
    const base = await seen({ immunizations: many });
    const extra = { id: randomUUID(), vaccine: 'Tetanus', date: null };
    const refused = await pushOne(await change('update', { [`immunizations:${extra.id}`]: extra }, base));
    expect(refused).toMatchObject({ status: 400, body: { message: M.tooManyEntries } });
    expect(await storedData()).not.toHaveProperty(`immunizations:${extra.id}`);
    // One out, one in: still 100.
    const swapped = await pushOne(
      await change(
        'update',
        { [`immunizations:${many[0]?.id}`]: null, [`immunizations:${extra.id}`]: extra },
        base,
      ),
    );
    expect(swapped?.status).toBe(200);
    expect((await historyOf(patient)).immunizations).toHaveLength(100);
  });

  it('reads a record stored with whole lists, and changes its entries one by one', async () => {
    const [allergy, condition, latex] = [penicillin(), asthma(), { ...penicillin(), substance: 'Latex' }];
    const at = Date.now() - 60_000;
    await ctx.database.db.insert(records).values({
      id: await recordId(),
      resource: 'medical_history',
      patientId: patient.patientId ?? '',
      version: sql`nextval('change_version_seq')`,
      data: { allergies: [allergy], conditions: [condition] },
      fieldChangedAt: { allergies: at, conditions: at },
      createdBy: patient.userId,
    });
    const legacy = (await read(patient)).json<{ data: History }>().data;
    expect([legacy.allergies, legacy.conditions]).toEqual([[allergy], [condition]]);
    await pushOne(
      await change(
        'update',
        { [`allergies:${allergy.id}`]: null, [`allergies:${latex.id}`]: latex },
        legacy.version,
      ),
    );
    await put(patient, { conditions: [] });
    const history = await historyOf(patient);
    expect([history.allergies, history.conditions]).toEqual([[latex], []]);
  });
});

describe('bad entry fields', () => {
  const id = randomUUID();
  const allergy = { ...penicillin(), id };
  const cases: [string, Record<string, unknown>, string][] = [
    ['a list not known', { [`allergy:${id}`]: allergy }, M.entryFieldInvalid],
    ['a name without a list', { [`:${id}`]: allergy }, M.entryFieldInvalid],
    ['a name that is no list of its own', { [`constructor:${id}`]: allergy }, M.entryFieldInvalid],
    ['an entry id in the name that is no UUID', { 'allergies:7': allergy }, M.entryFieldIdInvalid],
    ['a value that is neither an entry nor null', { [`allergies:${id}`]: 'peanuts' }, M.entryValueInvalid],
    [
      'an entry whose id is not the one in its name',
      { [`allergies:${randomUUID()}`]: allergy },
      M.entryIdMismatch,
    ],
    [
      'an entry its schema refuses',
      { [`allergies:${id}`]: { ...allergy, severity: 'deadly' } },
      M.severityInvalid,
    ],
    [
      'an added_at that is no time',
      { [`allergies:${id}`]: { ...allergy, added_at: 'yesterday' } },
      M.addedAtInvalid,
    ],
    ['a list sent whole and as entries', { allergies: [], [`allergies:${id}`]: null }, M.listAndEntries],
    [
      'one entry twice',
      { [`allergies:${id}`]: null, [`allergies:${id.toUpperCase()}`]: null },
      M.duplicateEntryId,
    ],
  ];
  it.each(cases)('refuses %s, by REST and pushed, with its message', async (_case, body, message) => {
    const response = await put(patient, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(messageOf(response)).toBe(message);
    const pushed = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'create',
        id: await medicalHistoryId(patient.patientId ?? ''),
        payload: body,
      },
    ]);
    expect(pushed.json().results[0]).toMatchObject({ status: 400, body: { message } });
    expect((await historyOf(patient)).version).toBe(0);
  });
});

describe('bad input', () => {
  const long = (length: number) => 'x'.repeat(length);
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a condition without a name',
      { conditions: [{ id: randomUUID(), name: ' ' }] },
      M.conditionNameRequired,
    ],
    [
      'a condition name too long',
      { conditions: [{ id: randomUUID(), name: long(201) }] },
      M.conditionNameTooLong,
    ],
    ['an onset that is no date', { conditions: [{ ...asthma(), onset: '2020-13' }] }, M.dateInvalid],
    ['an onset of 31 February', { conditions: [{ ...asthma(), onset: '2020-02-31' }] }, M.dateInvalid],
    ['an onset in the future', { conditions: [{ ...asthma(), onset: '2999' }] }, M.dateInFuture],
    [
      'an unknown condition status',
      { conditions: [{ ...asthma(), status: 'gone' }] },
      M.conditionStatusInvalid,
    ],
    ['condition notes too long', { conditions: [{ ...asthma(), notes: long(1001) }] }, M.notesTooLong],
    [
      'an allergy without a substance',
      { allergies: [{ ...penicillin(), substance: '' }] },
      M.substanceRequired,
    ],
    ['a reaction too long', { allergies: [{ ...penicillin(), reaction: long(201) }] }, M.reactionTooLong],
    [
      'an allergy without a severity',
      { allergies: [{ id: randomUUID(), substance: 'Latex' }] },
      M.severityInvalid,
    ],
    ['an unknown severity', { allergies: [{ ...penicillin(), severity: 'deadly' }] }, M.severityInvalid],
    ['a surgery without a procedure', { surgeries: [{ id: randomUUID() }] }, M.procedureRequired],
    [
      'a surgery date that is no date',
      { surgeries: [{ id: randomUUID(), procedure: 'X', date: 'May' }] },
      M.dateInvalid,
    ],
    [
      'family history without a relative',
      { family_history: [{ id: randomUUID(), condition: 'Diabetes' }] },
      M.relativeRequired,
    ],
    [
      'family history without a condition',
      { family_history: [{ id: randomUUID(), relative: 'Mother' }] },
      M.familyConditionRequired,
    ],
    [
      'an immunization without a vaccine',
      { immunizations: [{ id: randomUUID(), vaccine: '' }] },
      M.vaccineRequired,
    ],
    ['an unknown smoking answer', { lifestyle: { smoking: 'sometimes' } }, M.smokingInvalid],
    ['an unknown alcohol answer', { lifestyle: { alcohol: 'lots' } }, M.alcoholInvalid],
    ['an unknown exercise answer', { lifestyle: { exercise: 'marathons' } }, M.exerciseInvalid],
    ['lifestyle notes too long', { lifestyle: { notes: long(1001) } }, M.notesTooLong],
    ['lifestyle that is not an object', { lifestyle: 'healthy' }, M.lifestyleInvalid],
    ['a list that is not a list', { allergies: 'peanuts' }, M.listInvalid],
    ['an entry id that is no UUID', { allergies: [{ ...penicillin(), id: '7' }] }, M.entryIdInvalid],
    [
      'two entries with one id',
      {
        conditions: [
          { ...asthma(), id: 'a0b1c2d3-0000-4000-8000-000000000001' },
          { ...asthma(), id: 'a0b1c2d3-0000-4000-8000-000000000001' },
        ],
      },
      M.duplicateEntryId,
    ],
    [
      'more than 100 entries',
      { immunizations: Array.from({ length: 101 }, () => ({ id: randomUUID(), vaccine: 'Flu' })) },
      M.tooManyEntries,
    ],
    [
      'a control character',
      { conditions: [{ ...asthma(), name: 'Asth\u0000ma' }] },
      'This field contains characters that cannot be saved (control characters).',
    ],
    ['a patient id that is no UUID', { patient_id: 'me' }, M.patientInvalid],
  ];
  it.each(cases)('refuses %s with its message, and stores nothing', async (_case, body, message) => {
    const response = await put(patient, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(messageOf(response)).toBe(message);
    expect((await historyOf(patient)).version).toBe(0);
  });

  it('refuses a bad pushed change with the same message', async () => {
    const id = await medicalHistoryId(patient.patientId ?? '');
    const pushed = await push(patient, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'create',
        id,
        payload: { allergies: [{ id: randomUUID(), substance: 'Latex', severity: 'deadly' }] },
      },
    ]);
    expect(pushed.json().results[0]).toMatchObject({ status: 400, body: { message: M.severityInvalid } });
  });
});

describe('who may', () => {
  it('lets a caregiver with ReadMedicalHistory read, and no caregiver write', async () => {
    const allergy = penicillin();
    await put(patient, { allergies: [allergy] });
    const reader = await makePerson(ctx, 'Caregiver', 'Rita Reader');
    await link(ctx, patient, reader, ['ReadMedicalHistory']);
    expect((await historyOf(reader, patient.patientId ?? '')).allergies).toEqual([allergy]);

    const refused = await put(reader, { patient_id: patient.patientId, allergies: [] });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(messageOf(refused)).toBe(M.caregiverReadOnly);
    const id = await medicalHistoryId(patient.patientId ?? '');
    const pushed = await push(reader, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'update',
        id,
        base_version: 1,
        payload: { patient_id: patient.patientId, allergies: [] },
      },
    ]);
    expect(pushed.json().results[0]).toMatchObject({ status: 403, body: { message: M.caregiverReadOnly } });
    expect((await historyOf(patient)).allergies).toEqual([allergy]);
  });

  it('refuses a caregiver without ReadMedicalHistory, another patient, and no token', async () => {
    await put(patient, { allergies: [penicillin()] });
    const other = await makePerson(ctx, 'Caregiver', 'Otto Other');
    await link(ctx, patient, other, ['ReadPrescription', 'EditPrescription', 'ReadLabReport']);
    const denied = await read(other, patient.patientId ?? '');
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('Penicillin');
    expect((await put(other, { patient_id: patient.patientId, allergies: [] })).statusCode).toBe(403);

    const stranger = await makePerson(ctx, 'Patient', 'Sam Stranger');
    const peek = await read(stranger, patient.patientId ?? '');
    expect(peek.statusCode).toBe(403);
    expect(peek.body).not.toContain('Penicillin');
    expect((await put(stranger, { patient_id: patient.patientId, allergies: [] })).statusCode).toBe(403);
    // Naming the owner's record by its id: not found, as any record not one's own.
    const ownerRecord = await medicalHistoryId(patient.patientId ?? '');
    const byId = await put(stranger, { id: ownerRecord, allergies: [] });
    expect(byId.statusCode, byId.body).toBe(404);
    expect(messageOf(byId)).toBe(M.notFound);
    const pushed = await push(stranger, [
      {
        idempotency_key: `mh-${randomUUID()}`,
        resource: 'medical_history',
        op: 'update',
        id: ownerRecord,
        base_version: 1,
        payload: { allergies: [] },
      },
    ]);
    expect(pushed.json().results[0]).toMatchObject({ status: 404 });
    // The stranger's own history is untouched by all this, and theirs alone.
    expect((await historyOf(stranger)).allergies).toEqual([]);
    expect((await historyOf(patient)).allergies).toHaveLength(1);

    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/medical-history' });
    expect(anonymous.statusCode).toBe(401);
    const anonymousPut = await ctx.app.inject({
      method: 'PUT',
      url: '/api/medical-history',
      payload: { allergies: [] },
    });
    expect(anonymousPut.statusCode).toBe(401);
  });

  it('needs the beta policy accepted to write', async () => {
    const newcomer = await makePerson(ctx, 'Patient', 'Nina New', { acceptedBetaPolicy: false });
    const refused = await put(newcomer, { allergies: [penicillin()] });
    expect(refused.statusCode).toBe(403);
    expect((await historyOf(newcomer)).version).toBe(0);
  });
});
