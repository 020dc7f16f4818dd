import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIRECTORY_MESSAGES } from '../../src/domain/directory';
import { MY_PHARMACY_MESSAGES } from '../../src/domain/pharmacies';
import { directoryPharmacies } from '../../src/server/db/schema';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// My pharmacies (GET /api/pharmacies/list, POST /api/pharmacies/add, PUT and DELETE /api/pharmacies/:id)
// on the real app and through POST /api/sync/push: one preferred pharmacy at most, the patient's own
// writes only (caregivers read with ReadPharmacy), and the directory searched by zip or by name.

let ctx: TestContext;
let patient: Person;
let corner: string;
let allNight: string;
let hospital: string;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
  corner = await pharmacy('3333333331', 'Corner Pharmacy', '10001', 40.7484, -73.9967);
  allNight = await pharmacy('3333333332', 'All Night 24 Hour Drugs', '11201', 40.694, -73.9903, true);
  hospital = await pharmacy('3333333333', 'Hospital Outpatient Pharmacy', '90210', 34.0901, -118.4065);
});

async function pharmacy(
  npi: string,
  name: string,
  zip: string,
  latitude: number,
  longitude: number,
  open24 = false,
) {
  const [row] = await ctx.database.db
    .insert(directoryPharmacies)
    .values({
      npi,
      name,
      address: '5 Main St',
      city: 'Somewhere',
      state: 'NY',
      zip,
      phone: '(212) 555-0199',
      latitude,
      longitude,
      open24Hours: open24 ? true : null,
    })
    .returning({ id: directoryPharmacies.pharmacyId });
  return row?.id ?? '';
}

const add = (person: Person, body: Record<string, unknown>) =>
  as(ctx, person, { method: 'POST', url: '/api/pharmacies/add', payload: body });
const prefer = (person: Person, id: string, preferred = true) =>
  as(ctx, person, { method: 'PUT', url: `/api/pharmacies/${id}`, payload: { preferred } });
const remove = (person: Person, id: string) =>
  as(ctx, person, { method: 'DELETE', url: `/api/pharmacies/${id}` });
const listed = async (person: Person, query = '') =>
  (await as(ctx, person, { method: 'GET', url: `/api/pharmacies/list${query}` }))
    .json<{ data: { name: string; preferred: boolean }[] }>()
    .data.map((row) => `${row.name}${row.preferred ? ' (preferred)' : ''}`);
const idOf = (response: { json: () => unknown }) => (response.json() as { data: { id: string } }).data.id;

describe('my pharmacies', () => {
  it('adds from the directory, keeps one preferred, lists the preferred first, and removes', async () => {
    // The first one is the preferred one, asked or not.
    const first = await add(patient, { patient_id: patient.patientId, pharmacy_id: corner });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      message: MY_PHARMACY_MESSAGES.added,
      data: { name: 'Corner Pharmacy', pharmacy_id: corner, preferred: true, phone: '(212) 555-0199' },
    });
    const second = await add(patient, { patient_id: patient.patientId, pharmacy_id: allNight });
    expect(second.json().data).toMatchObject({ preferred: false, open_24_hours: true });
    expect(await listed(patient)).toEqual(['Corner Pharmacy (preferred)', 'All Night 24 Hour Drugs']);

    const preferred = await prefer(patient, idOf(second));
    expect(preferred.statusCode).toBe(200);
    expect(preferred.json().message).toBe(MY_PHARMACY_MESSAGES.preferred);
    expect(await listed(patient)).toEqual(['All Night 24 Hour Drugs (preferred)', 'Corner Pharmacy']);

    // A third added as preferred takes it over too.
    await add(patient, { patient_id: patient.patientId, pharmacy_id: hospital, preferred: true });
    expect(await listed(patient)).toEqual([
      'Hospital Outpatient Pharmacy (preferred)',
      'All Night 24 Hour Drugs',
      'Corner Pharmacy',
    ]);
    expect((await remove(patient, idOf(first))).json().message).toBe(MY_PHARMACY_MESSAGES.removed);
    expect(await listed(patient)).toEqual([
      'Hospital Outpatient Pharmacy (preferred)',
      'All Night 24 Hour Drugs',
    ]);
  });

  it('keeps a pharmacy once, and refuses bad input with the reason', async () => {
    await add(patient, { patient_id: patient.patientId, pharmacy_id: corner });
    const again = await add(patient, { patient_id: patient.patientId, pharmacy_id: corner });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MY_PHARMACY_MESSAGES.exists);
    const cases: [Record<string, unknown>, string][] = [
      [{ patient_id: patient.patientId, pharmacy_id: randomUUID() }, MY_PHARMACY_MESSAGES.pharmacyUnknown],
      [{ patient_id: patient.patientId }, MY_PHARMACY_MESSAGES.pharmacyRequired],
      [
        { patient_id: patient.patientId, pharmacy_id: allNight, preferred: 'yes' },
        MY_PHARMACY_MESSAGES.preferredInvalid,
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await add(patient, body);
      expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
        status: 400,
        message,
      });
    }
    const entry = (await as(ctx, patient, { method: 'GET', url: '/api/pharmacies/list' })).json().data[0].id;
    const badEdit = await as(ctx, patient, {
      method: 'PUT',
      url: `/api/pharmacies/${entry}`,
      payload: { name: 'X' },
    });
    expect(badEdit.statusCode).toBe(400);
    expect(await listed(patient)).toEqual(['Corner Pharmacy (preferred)']);
  });

  it("lets caregivers read with ReadPharmacy and change nothing; another patient's entries are 404", async () => {
    const entry = idOf(await add(patient, { patient_id: patient.patientId, pharmacy_id: corner }));
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    const stranger = await makePerson(ctx, 'Caregiver', 'Stranger');
    const other = await makePerson(ctx, 'Patient', 'Other');
    await link(ctx, patient, reader, ['ReadPharmacy', 'SearchPharmacy']);
    expect(await listed(reader, `?patient=${patient.patientId}`)).toEqual(['Corner Pharmacy (preferred)']);
    const strangerList = await as(ctx, stranger, {
      method: 'GET',
      url: `/api/pharmacies/list?patient=${patient.patientId}`,
    });
    expect(strangerList.statusCode).toBe(403);
    expect(strangerList.body).not.toContain('Corner');
    expect((await add(reader, { patient_id: patient.patientId, pharmacy_id: allNight })).statusCode).toBe(
      403,
    );
    expect((await prefer(reader, entry)).statusCode).toBe(403);
    expect((await remove(reader, entry)).statusCode).toBe(403);
    expect((await add(other, { patient_id: patient.patientId, pharmacy_id: allNight })).statusCode).toBe(403);
    const foreign = await remove(other, entry);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Corner');
    expect(await listed(patient)).toEqual(['Corner Pharmacy (preferred)']);
  });

  it('goes through the batched replay as by REST, and reaches a caregiver with ReadPharmacy by the pull', async () => {
    const entry = randomUUID();
    const change = (key: string, op: string, payload?: Record<string, unknown>) => ({
      idempotency_key: key,
      resource: 'pharmacies',
      op,
      id: entry,
      ...(payload ? { payload } : {}),
    });
    const pushed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/sync/push',
      payload: {
        changes: [
          change('push-pharmacy-1', 'create', { patient_id: patient.patientId, pharmacy_id: corner }),
          change('push-pharmacy-2', 'update', { preferred: true }),
        ],
      },
    });
    expect(pushed.json().results.map((result: { status: number }) => result.status)).toEqual([201, 200]);
    expect(await listed(patient)).toEqual(['Corner Pharmacy (preferred)']);
    const reader = await makePerson(ctx, 'Caregiver', 'Reader');
    await link(ctx, patient, reader, ['ReadPharmacy']);
    const pulled = await as(ctx, reader, { method: 'GET', url: '/api/sync/pull?cursor=0' });
    expect(
      pulled.json().changes.map((row: { resource: string; id: string }) => [row.resource, row.id]),
    ).toEqual([['pharmacies', entry]]);
    const removed = await as(ctx, patient, {
      method: 'POST',
      url: '/api/sync/push',
      payload: { changes: [change('push-pharmacy-3', 'delete')] },
    });
    expect(removed.json().results[0].status).toBe(200);
    expect(await listed(patient)).toEqual([]);
  });
});

describe('pharmacy search', () => {
  it('searches by name alone, by zip, or both, and needs one of them', async () => {
    const names = async (query: string) =>
      (await as(ctx, patient, { method: 'GET', url: `/api/pharmacies?${query}` }))
        .json<{ data: { name: string }[] }>()
        .data.map((row) => row.name);
    expect(await names('name=pharmacy')).toEqual(['Corner Pharmacy', 'Hospital Outpatient Pharmacy']);
    expect(await names('zip=10001')).toEqual(['Corner Pharmacy', 'All Night 24 Hour Drugs']);
    expect(await names('zip=10001&name=night')).toEqual(['All Night 24 Hour Drugs']);
    const neither = await as(ctx, patient, { method: 'GET', url: '/api/pharmacies?zip=&name=' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toBe(DIRECTORY_MESSAGES.zipRequired);
  });
});
