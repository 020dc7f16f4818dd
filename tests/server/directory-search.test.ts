import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { DIRECTORY_MESSAGES, DOCTOR_PAGE_SIZE, milesFrom, NEARBY_MILES } from '../../src/domain/directory';
import { directoryDoctors, directoryPharmacies } from '../../src/server/db/schema';
import { loadSampleDirectoryIfEmpty } from '../../src/server/directory/sample';
import { COVERAGE_MILES, coverageHubs, isPlace } from '../../src/server/directory/sample-data';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';

// GET /api/doctors, GET /api/doctors/:id and GET /api/pharmacies on the real app: the page arithmetic at
// its edges, every filter, nearby first, and the refusals (bad input, no token).

let ctx: TestContext;
let patient: Person;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient');
});

// Coordinates of real zips (from the zipcodes table): Manhattan, Brooklyn, Hoboken, Beverly Hills.
const PLACES = {
  '10001': { city: 'New York', state: 'NY', latitude: 40.7484, longitude: -73.9967 },
  '11201': { city: 'Brooklyn', state: 'NY', latitude: 40.694, longitude: -73.9903 },
  '07030': { city: 'Hoboken', state: 'NJ', latitude: 40.7445, longitude: -74.0329 },
  '90210': { city: 'Beverly Hills', state: 'CA', latitude: 34.0901, longitude: -118.4065 },
} as const;
type Zip = keyof typeof PLACES;

let npi = 1_000_000_000;
async function doctor(name: string, speciality: string, zip: Zip) {
  const [row] = await ctx.database.db
    .insert(directoryDoctors)
    .values({ npi: String(npi++), name, speciality, address: '1 Main St', zip, ...PLACES[zip] })
    .returning({ id: directoryDoctors.doctorId });
  return row?.id ?? '';
}
async function pharmacy(name: string, zip: Zip, open24Hours: boolean | null = null) {
  await ctx.database.db
    .insert(directoryPharmacies)
    .values({ npi: String(npi++), name, address: '2 Main St', zip, open24Hours, ...PLACES[zip] });
}

async function search(path: string) {
  const response = await as(ctx, patient, { method: 'GET', url: path });
  return { status: response.statusCode, body: response.json() };
}

describe('doctor search', () => {
  it('pages 5 at a time by default, with the arithmetic right at the edges', async () => {
    for (let index = 0; index < 12; index++)
      await doctor(`Doctor ${String(index).padStart(2, '0')}`, 'Cardiology', '10001');

    const first = await search('/api/doctors');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: DOCTOR_PAGE_SIZE, totalCount: 12, totalPages: 3 });
    expect(first.body.remaining).toBe(7);
    expect(first.body.data.map((row: { name: string }) => row.name)).toEqual([
      'Doctor 00',
      'Doctor 01',
      'Doctor 02',
      'Doctor 03',
      'Doctor 04',
    ]);
    const last = await search('/api/doctors?page=3');
    expect(last.body).toMatchObject({ page: 3, totalCount: 12, totalPages: 3, remaining: 0 });
    expect(last.body.data).toHaveLength(2);
    const past = await search('/api/doctors?page=4');
    expect(past.body).toMatchObject({ page: 4, totalCount: 12, totalPages: 3, remaining: 0, data: [] });
    const exact = await search('/api/doctors?limit=6&page=2');
    expect(exact.body).toMatchObject({ totalPages: 2, remaining: 0 });
    expect(exact.body.data).toHaveLength(6);
    const none = await search('/api/doctors?name=nobody');
    expect(none.body).toMatchObject({ data: [], totalCount: 0, totalPages: 0, remaining: 0 });
  });

  it('matches a part of the name in any case, and wildcards only as themselves', async () => {
    await doctor('Maria Gonzalez', 'Family Medicine', '10001');
    await doctor('Mario Lanza', 'Cardiology', '10001');
    await doctor('Ann 100% Sure', 'Cardiology', '10001');
    const names = async (query: string) =>
      (await search(`/api/doctors?${query}`)).body.data.map((row: { name: string }) => row.name);
    expect(await names('name=MARI')).toEqual(['Maria Gonzalez', 'Mario Lanza']);
    expect(await names('name=onzal')).toEqual(['Maria Gonzalez']);
    expect(await names('name=%25')).toEqual(['Ann 100% Sure']);
    expect(await names('name=_')).toEqual([]);
    expect(await names('name=%20%20')).toHaveLength(3); // blank is no filter
  });

  it('filters by speciality in any case, and refuses one it does not know', async () => {
    await doctor('Maria Gonzalez', 'Family Medicine', '10001');
    await doctor('Mario Lanza', 'Cardiology', '10001');
    const cardiology = await search('/api/doctors?speciality=cardiology');
    expect(cardiology.body.data.map((row: { name: string }) => row.name)).toEqual(['Mario Lanza']);
    const both = await search('/api/doctors?speciality=Cardiology&name=maria');
    expect(both.body.totalCount).toBe(0);
    const unknown = await search('/api/doctors?speciality=Astrology');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(DIRECTORY_MESSAGES.specialityUnknown);
  });

  it('puts nearby practices first for a zip, and leaves out those far away', async () => {
    await doctor('Far Away', 'Cardiology', '90210');
    await doctor('Across The River', 'Cardiology', '07030');
    await doctor('In Brooklyn', 'Cardiology', '11201');
    await doctor('Next Door', 'Cardiology', '10001');
    // In the square around 10001 that finds candidates by index, but 63 miles away (45 north, 45 east).
    await ctx.database.db.insert(directoryDoctors).values({
      npi: String(npi++),
      name: 'In The Corner',
      speciality: 'Cardiology',
      address: '9 Far Rd',
      city: 'Somewhere',
      state: 'CT',
      zip: '06001',
      latitude: PLACES['10001'].latitude + 45 / 69.05,
      longitude:
        PLACES['10001'].longitude + 45 / (69.05 * Math.cos((PLACES['10001'].latitude * Math.PI) / 180)),
    });
    const near = await search('/api/doctors?zip=10001');
    expect(near.body.totalCount).toBe(3);
    const rows = near.body.data as { name: string; distance_miles: number }[];
    expect(rows.map((row) => row.name)).toEqual(['Next Door', 'Across The River', 'In Brooklyn']);
    expect(rows[0]?.distance_miles).toBe(0);
    expect(rows[2]?.distance_miles).toBeGreaterThan(3);
    expect(rows[2]?.distance_miles).toBeLessThan(5);
    const west = await search('/api/doctors?zip=90210');
    expect(west.body.data.map((row: { name: string }) => row.name)).toEqual(['Far Away']);
    // A chosen distance: 20 miles up the Hudson is beyond 10 and within 25; the corner (63 miles) within 100.
    await ctx.database.db.insert(directoryDoctors).values({
      npi: String(npi++),
      name: 'Up The Hudson',
      speciality: 'Cardiology',
      address: '3 River Rd',
      city: 'Nyack',
      state: 'NY',
      zip: '10960',
      latitude: PLACES['10001'].latitude + 20 / 69.05,
      longitude: PLACES['10001'].longitude,
    });
    const names = async (query: string) =>
      (await search(`/api/doctors?zip=10001&limit=10&${query}`)).body.data.map(
        (row: { name: string }) => row.name,
      );
    const nearest = ['Next Door', 'Across The River', 'In Brooklyn'];
    expect(await names('miles=10')).toEqual(nearest);
    expect(await names('miles=25')).toEqual([...nearest, 'Up The Hudson']);
    expect(await names('miles=50')).toEqual([...nearest, 'Up The Hudson']);
    expect(await names('')).toEqual([...nearest, 'Up The Hudson']);
    expect(await names('miles=100')).toEqual([...nearest, 'Up The Hudson', 'In The Corner']);
  });

  it('refuses bad input with a message that says what is allowed', async () => {
    const cases: [string, string][] = [
      ['zip=1234', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=abcde', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=6270', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=627044', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=6270a', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=62-04', DIRECTORY_MESSAGES.zipInvalid],
      ['zip=00000', DIRECTORY_MESSAGES.zipUnknown],
      ['zip=99999', DIRECTORY_MESSAGES.zipUnknown],
      ['zip=09002', DIRECTORY_MESSAGES.zipNoPlace], // APO AE, at 0, 0 in the zip table
      ['zip=96201', DIRECTORY_MESSAGES.zipNoPlace], // APO AP, placed in Korea
      ['zip=10001&miles=75', DIRECTORY_MESSAGES.milesInvalid],
      ['zip=10001&miles=500', DIRECTORY_MESSAGES.milesInvalid],
      ['zip=10001&miles=ten', DIRECTORY_MESSAGES.milesInvalid],
      ['page=0', DIRECTORY_MESSAGES.pageInvalid],
      ['page=1.5', DIRECTORY_MESSAGES.pageInvalid],
      ['page=x', DIRECTORY_MESSAGES.pageInvalid],
      ['limit=0', DIRECTORY_MESSAGES.limitInvalid],
      ['limit=51', DIRECTORY_MESSAGES.limitInvalid],
      [`name=${'a'.repeat(101)}`, DIRECTORY_MESSAGES.nameTooLong],
    ];
    for (const [query, message] of cases) {
      const answer = await search(`/api/doctors?${query}`);
      expect({ query, status: answer.status, message: answer.body.message }).toEqual({
        query,
        status: 400,
        message,
      });
    }
  });

  it('shows a full profile by id, 404 for an unknown one, and nothing without a token', async () => {
    const id = await doctor('Maria Gonzalez', 'Family Medicine', '10001');
    const found = await search(`/api/doctors/${id}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({
      doctor_id: id,
      name: 'Maria Gonzalez',
      speciality: 'Family Medicine',
      city: 'New York',
      accepting_new_patients: null,
    });
    expect((await search(`/api/doctors/${randomUUID()}`)).status).toBe(404);
    expect((await search('/api/doctors/not-a-uuid')).status).toBe(400);
    for (const url of ['/api/doctors', `/api/doctors/${id}`, '/api/pharmacies?zip=10001']) {
      const anonymous = await ctx.app.inject({ method: 'GET', url });
      expect({ url, status: anonymous.statusCode }).toEqual({ url, status: 401 });
      expect(anonymous.body).not.toContain('Maria');
    }
  });
});

describe('pharmacy search', () => {
  it('needs a zip, and answers the pharmacies near it, nearest first', async () => {
    await pharmacy('Hollywood Drugs', '90210');
    await pharmacy('Brooklyn Pharmacy', '11201');
    await pharmacy('Chelsea 24 Hour Pharmacy', '10001', true);
    const missing = await search('/api/pharmacies');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(DIRECTORY_MESSAGES.zipRequired);
    const near = await search('/api/pharmacies?zip=10001');
    expect(near.status).toBe(200);
    expect(near.body).toMatchObject({ page: 1, limit: DOCTOR_PAGE_SIZE, totalCount: 2, remaining: 0 });
    expect(near.body.data.map((row: { name: string }) => row.name)).toEqual([
      'Chelsea 24 Hour Pharmacy',
      'Brooklyn Pharmacy',
    ]);
    expect(near.body.data[0]).toMatchObject({ open_24_hours: true, opening_hours: null, zip: '10001' });
    const named = await search('/api/pharmacies?zip=10001&name=brook');
    expect(named.body.data.map((row: { name: string }) => row.name)).toEqual(['Brooklyn Pharmacy']);
    // Beverly Hills is 2,400 miles away: even the widest search leaves it out.
    expect((await search('/api/pharmacies?zip=10001&miles=100')).body.totalCount).toBe(2);
    const refused = await search('/api/pharmacies?zip=10001&miles=1000');
    expect(refused.body.message).toBe(DIRECTORY_MESSAGES.milesInvalid);
    expect((await search('/api/pharmacies?zip=99999')).body.message).toBe(DIRECTORY_MESSAGES.zipUnknown);
  });

  it('refuses a bad zip with a sentence named as the zip field, so the device shows it there', async () => {
    const cases: [string, string][] = [
      ['abcde', DIRECTORY_MESSAGES.zipInvalid],
      ['1234', DIRECTORY_MESSAGES.zipInvalid],
      ['99999', DIRECTORY_MESSAGES.zipUnknown],
      ['34001', DIRECTORY_MESSAGES.zipNoPlace], // APO AA
    ];
    for (const path of ['/api/pharmacies', '/api/doctors']) {
      for (const [zip, message] of cases) {
        const answer = await search(`${path}?zip=${zip}`);
        expect({ path, zip, status: answer.status, body: answer.body }).toEqual({
          path,
          zip,
          status: 400,
          body: { message, errors: [{ msg: message, path: 'zip' }] },
        });
      }
    }
  });
});

describe('the sample directory of a fresh install', () => {
  it('loads when the directory is empty, so a search finds doctors, and never over an imported one', async () => {
    await loadSampleDirectoryIfEmpty(ctx.database.db, ctx.app.log);
    const near = await search('/api/doctors?zip=10001');
    expect(near.status).toBe(200);
    expect(near.body.totalCount).toBeGreaterThan(10);
    expect(near.body.data[0].distance_miles).toBeLessThan(5);
    const pharmacies = await search('/api/pharmacies?zip=10001');
    expect(pharmacies.body.totalCount).toBeGreaterThan(0);

    await resetDatabase(ctx);
    patient = await makePerson(ctx, 'Patient');
    await doctor('Imported Already', 'Cardiology', '10001');
    await loadSampleDirectoryIfEmpty(ctx.database.db, ctx.app.log);
    expect((await search('/api/doctors')).body.totalCount).toBe(1);
  });

  // Zips people live in that a sample of big cities misses: the ones testers named, rural and remote
  // ones, then the first, the last and three between of every state's (DC's, Puerto Rico's, each
  // territory's) zips in the zipcodes table.
  const NAMED_ZIPS = ['62704', '59001', '99701', '96720', '82001', '05001', '00601', '58001', '69001'];
  const spreadOfEveryState = (): string[] => {
    const byState = new Map<string, string[]>();
    for (const code of Object.values(zipcodes.codes).filter(isPlace)) {
      byState.set(code.state, [...(byState.get(code.state) ?? []), code.zip]);
    }
    expect(byState.size).toBeGreaterThanOrEqual(52); // 50 states, DC, Puerto Rico
    return [...byState.values()].flatMap((zips) => {
      const sorted = zips.sort();
      const at = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(share * (sorted.length - 1)));
      return [...new Set(at)].map((index) => sorted[index] ?? '');
    });
  };

  it(
    `finds at least 5 doctors and 3 pharmacies within ${NEARBY_MILES} miles of zips of every state`,
    { timeout: 180_000 },
    async () => {
      await loadSampleDirectoryIfEmpty(ctx.database.db, ctx.app.log);
      const zips = [...new Set([...NAMED_ZIPS, ...spreadOfEveryState()])];
      expect(zips.length).toBeGreaterThan(250);
      const short: string[] = [];
      for (const zip of zips) {
        const [doctors, pharmacies] = [
          await search(`/api/doctors?zip=${zip}`),
          await search(`/api/pharmacies?zip=${zip}`),
        ];
        expect({ zip, doctors: doctors.status, pharmacies: pharmacies.status }).toEqual({
          zip,
          doctors: 200,
          pharmacies: 200,
        });
        if (doctors.body.totalCount < 5 || pharmacies.body.totalCount < 3) {
          short.push(`${zip}: ${doctors.body.totalCount} doctors, ${pharmacies.body.totalCount} pharmacies`);
        }
        const farthest = doctors.body.data.at(-1)?.distance_miles ?? 0;
        expect(farthest).toBeLessThanOrEqual(NEARBY_MILES);
      }
      expect(short).toEqual([]);
    },
  );

  it('puts every zip that names a place within reach of a hub of doctors and pharmacies', () => {
    const hubs = coverageHubs();
    const places = Object.values(zipcodes.codes).filter(isPlace);
    expect(places.length).toBeGreaterThan(40_000);
    const unreached = places.filter((place) => !hubs.some((hub) => milesFrom(place, hub) <= COVERAGE_MILES));
    expect(unreached.map((place) => place.zip)).toEqual([]);
    // Military mail zips name no place: no hub is made for them.
    expect(hubs.filter((hub) => ['AA', 'AE', 'AP'].includes(hub.state))).toEqual([]);
  });
});
