import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  BETA_POLICY_MESSAGES,
  PROFILE_PHOTO_MAX_BYTES,
  type Profile,
} from '../../src/domain/auth';
import { TEXT_MESSAGES } from '../../src/domain/text';
import { caregivers, patients, users } from '../../src/server/db/schema';
import {
  bearer,
  createUser,
  multipartForm,
  resetDatabase,
  startTestApp,
  type FormFile,
  type TestContext,
  type TestUser,
} from './helpers';
import { TINY_PNG } from '../fixtures/images';
import { VALIDATE_ADDRESS_PER_MINUTE } from '../../src/server/routes/auth-rate-limit';

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  // A sign-up per test from one address: the limits have their own tests (auth-rate-limit.test.ts).
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', RATE_LIMIT_OTP_PER_MINUTE: '1000' });
});
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  for (const file of storedProfilePhotos()) rmSync(join(profileFolder(), file), { force: true });
  user = await createUser(ctx, { name: 'Maya Patel', zip_code: '10001' });
});

async function getProfile(token = user.token) {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });
  return { response, profile: response.json<{ data: Profile }>().data };
}

function updateProfile(
  fields: Record<string, string>,
  files: FormFile[] = [],
  token: string | null = user.token,
) {
  const form = multipartForm(fields, files);
  return ctx.app.inject({
    method: 'PUT',
    url: '/api/auth/update-profile',
    headers: { ...form.headers, ...(token ? bearer(token) : {}) },
    payload: form.payload,
  });
}

function photo(bytes: Buffer, contentType = 'image/png', filename = 'me.png'): FormFile {
  return { field: 'photo', filename, contentType, bytes };
}

function profileFolder(): string {
  return join(ctx.dataDir, 'files', 'profile');
}

/** The photo files under the profile folder (each person's in a folder of their own), as relative paths. */
function storedProfilePhotos(): string[] {
  return readdirSync(profileFolder(), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(profileFolder().length + 1));
}

describe('GET /api/auth/profile', () => {
  it('answers every profile field', async () => {
    const { response, profile } = await getProfile();
    expect(response.statusCode).toBe(200);
    const [patient] = await ctx.database.db.select().from(patients).where(eq(patients.userId, user.userId));
    expect(response.json()).toEqual({
      success: true,
      data: {
        id: user.userId,
        name: 'Maya Patel',
        role: 'Patient',
        email: user.email,
        zip_code: '10001',
        patient_id: patient?.id,
        caregiver_id: null,
        // Kincare's own customer id, given with the Free plan the new patient chose (no provider yet).
        stripe_customer_id: expect.stringMatching(/^cus_local_[0-9a-f]{32}$/),
        email_verified: true,
        birth_date: null,
        age: null,
        gender: null,
        race: null,
        ethnicity: null,
        phone: null,
        address: null,
        city: null,
        state: null,
        photo_url: null,
        beta_policy_accepted_at: null,
      },
    });
    expect(profile.patient_id).toEqual(expect.any(String));
  });

  it('gives a caregiver a caregiver_id and no patient_id', async () => {
    const caregiver = await createUser(ctx, { role: 'Caregiver' });
    const { profile } = await getProfile(caregiver.token);
    const [row] = await ctx.database.db
      .select()
      .from(caregivers)
      .where(eq(caregivers.userId, caregiver.userId));
    expect(profile).toMatchObject({ role: 'Caregiver', caregiver_id: row?.id, patient_id: null });
  });

  it('needs a token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/profile' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });
});

describe('PUT /api/auth/update-profile', () => {
  const complete = {
    name: 'Maya R. Patel',
    zip_code: '560001',
    birth_date: '1980-02-29',
    gender: 'Female',
    race: 'Asian',
    ethnicity: 'Not Hispanic or Not Latino',
    phone: '+1 (212) 555-0199',
    address: '1 Main Street',
    city: 'New York',
    state: 'NY',
  };

  it('saves every field, works out the age and answers the new profile', async () => {
    const response = await updateProfile(complete);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ success: boolean; message: string; data: Profile }>();
    expect(body.success).toBe(true);
    expect(body.message).toBe('Profile updated successfully');
    const expectedAge = Math.floor(DateTime.now().diff(DateTime.fromISO('1980-02-29'), 'years').years);
    expect(body.data).toMatchObject({ ...complete, age: expectedAge });
    expect((await getProfile()).profile).toEqual(body.data);
  });

  it('leaves fields out of the form as they are, and clears a field sent empty', async () => {
    await updateProfile(complete);
    const response = await updateProfile({ phone: '', city: '' });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: Profile }>();
    expect(data).toMatchObject({
      phone: null,
      city: null,
      address: '1 Main Street',
      birth_date: '1980-02-29',
    });
    const cleared = await updateProfile({ birth_date: '', gender: '' });
    expect(cleared.json<{ data: Profile }>().data).toMatchObject({
      birth_date: null,
      age: null,
      gender: null,
    });
  });

  it.each([
    ['name', '', AUTH_MESSAGES.nameRequired],
    ['name', 'x'.repeat(101), AUTH_MESSAGES.nameTooLong],
    ['zip_code', '1234', AUTH_MESSAGES.zipInvalid],
    ['zip_code', '', AUTH_MESSAGES.zipInvalid],
    ['birth_date', '29/02/1980', AUTH_MESSAGES.birthDateInvalid],
    ['birth_date', '2023-02-30', AUTH_MESSAGES.birthDateInvalid],
    ['birth_date', DateTime.now().plus({ days: 2 }).toISODate() ?? '', AUTH_MESSAGES.birthDateFuture],
    ['gender', 'Unknown', AUTH_MESSAGES.genderInvalid],
    ['race', 'Martian', AUTH_MESSAGES.raceInvalid],
    ['ethnicity', 'Other', AUTH_MESSAGES.ethnicityInvalid],
    ['phone', '12345', AUTH_MESSAGES.phoneInvalid],
    ['phone', 'call me maybe', AUTH_MESSAGES.phoneInvalid],
    ['address', 'x'.repeat(201), AUTH_MESSAGES.addressFieldTooLong],
    ['city', 'x'.repeat(101), AUTH_MESSAGES.addressFieldTooLong],
    ['state', 'x'.repeat(51), AUTH_MESSAGES.addressFieldTooLong],
  ])('refuses a bad %s (%j) with 400 and its message, saving nothing', async (field, value, message) => {
    const response = await updateProfile({ ...complete, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
    expect((await getProfile()).profile).toMatchObject({
      name: 'Maya Patel',
      zip_code: '10001',
      phone: null,
    });
  });

  it.each([
    ['name', 'Maya\u0000Patel'],
    ['address', '1 Main St\u0000'],
    ['city', '\u001B[31mNew York'],
    ['state', 'N\u007FY'],
  ])('refuses a control character in %s (%j) with 400 and its message, never 500', async (field, value) => {
    const message = TEXT_MESSAGES.controlCharacters;
    const response = await updateProfile({ ...complete, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
    expect((await getProfile()).profile).toMatchObject({ name: 'Maya Patel', address: null });
  });

  it('refuses a lone surrogate in a form field (sent as UTF-16) with 400 and its message, never 500', async () => {
    // A UTF-8 body cannot carry a lone surrogate (it decodes to U+FFFD), but a part may declare UTF-16.
    const boundary = 'kincare-surrogate';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="city"\r\n` +
          'Content-Type: text/plain; charset=utf-16le\r\n\r\n',
      ),
      Buffer.from('Paris\uD800', 'utf16le'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/update-profile',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(user.token) },
      payload,
    });
    expect(response.statusCode).toBe(400);
    const message = TEXT_MESSAGES.brokenCharacters;
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: 'city' }] });
  });

  it('lists every bad field at once', async () => {
    const response = await updateProfile({ name: '', phone: '1', gender: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: unknown[] }>().errors).toEqual([
      { msg: AUTH_MESSAGES.nameRequired, path: 'name' },
      { msg: AUTH_MESSAGES.genderInvalid, path: 'gender' },
      { msg: AUTH_MESSAGES.phoneInvalid, path: 'phone' },
    ]);
  });

  it('stores a real PNG photo and links to it with a signed URL that serves it', async () => {
    const response = await updateProfile({ name: 'Maya' }, [photo(TINY_PNG)]);
    expect(response.statusCode).toBe(200);
    const url = response.json<{ data: Profile }>().data.photo_url;
    expect(url).toMatch(
      /^\/api\/files\/profile\/[0-9a-f]{32}\/[0-9a-f]{32}\.png\?expires=\d+&signature=[\w-]+$/,
    );
    const file = await ctx.app.inject({ method: 'GET', url: url ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('replaces the old photo file, and an empty photo field removes the photo', async () => {
    await updateProfile({}, [photo(TINY_PNG)]);
    await updateProfile({}, [photo(TINY_PNG, 'image/png', 'again.png')]);
    expect(storedProfilePhotos()).toHaveLength(1);
    const removed = await updateProfile({ photo: '' });
    expect(removed.json<{ data: Profile }>().data.photo_url).toBeNull();
    expect(storedProfilePhotos()).toHaveLength(0);
  });

  it('ignores an empty file input', async () => {
    await updateProfile({}, [photo(TINY_PNG)]);
    const response = await updateProfile({ name: 'Maya' }, [
      photo(Buffer.alloc(0), 'application/octet-stream', ''),
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: Profile }>().data.photo_url).not.toBeNull();
  });

  it('refuses text dressed up as a PNG with 415, saving nothing', async () => {
    const fake = photo(Buffer.from('this is not an image at all'), 'image/png', 'fake.png');
    const response = await updateProfile({ name: 'Changed' }, [fake]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'Profile photo must be a PNG, JPEG or WebP image.' });
    expect((await getProfile()).profile.name).toBe('Maya Patel');
    expect(storedProfilePhotos()).toHaveLength(0);
  });

  it('refuses a PDF as a photo', async () => {
    const response = await updateProfile({}, [photo(Buffer.from('%PDF-1.7\n...'), 'image/png', 'scan.png')]);
    expect(response.statusCode).toBe(415);
  });

  it('refuses a photo over 5 MB with 413', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(PROFILE_PHOTO_MAX_BYTES)]);
    const response = await updateProfile({ name: 'Changed' }, [photo(big)]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'Profile photo must be at most 5 MB.' });
    expect((await getProfile()).profile.name).toBe('Maya Patel');
    expect(storedProfilePhotos()).toHaveLength(0);
  });

  it('saves nothing, not even the photo, when a field is bad', async () => {
    const response = await updateProfile({ zip_code: 'abc' }, [photo(TINY_PNG)]);
    expect(response.statusCode).toBe(400);
    expect(storedProfilePhotos()).toHaveLength(0);
    expect((await getProfile()).profile.photo_url).toBeNull();
  });

  it('refuses a file under another field name, and a body that is not multipart', async () => {
    const other = await updateProfile({}, [{ ...photo(TINY_PNG), field: 'avatar' }]);
    expect(other.statusCode).toBe(400);
    const json = await ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/update-profile',
      headers: bearer(user.token),
      payload: { name: 'Json' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ message: 'Send the profile as a multipart form.' });
  });

  it('needs a token', async () => {
    expect((await updateProfile({ name: 'x' }, [], null)).statusCode).toBe(401);
    expect((await updateProfile({ name: 'x' }, [], 'bad-token')).statusCode).toBe(401);
  });
});

describe('POST /api/auth/beta-policy', () => {
  const allTicked = {
    notHipaa: true,
    notForMedicalDecisions: true,
    dataMayBeDeleted: true,
    agreeToPolicy: true,
  };

  function accept(payload: Record<string, unknown>, token: string | null = user.token) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/auth/beta-policy',
      headers: token ? bearer(token) : {},
      payload,
    });
  }

  it('records the four acknowledgements and answers the profile with the acceptance time', async () => {
    const before = Date.now();
    const response = await accept(allTicked);
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ success: boolean; data: Profile }>();
    expect(Date.parse(data.beta_policy_accepted_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.userId));
    expect(row?.betaPolicyAcknowledgements).toEqual(allTicked);
  });

  it.each(Object.keys(allTicked))('refuses when %s is not ticked', async (key) => {
    for (const value of [false, undefined, 'true']) {
      const response = await accept({ ...allTicked, [key]: value });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: BETA_POLICY_MESSAGES.allRequired,
        errors: [{ msg: BETA_POLICY_MESSAGES.allRequired, path: key }],
      });
    }
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.userId));
    expect(row?.betaPolicyAcceptedAt).toBeNull();
  });

  it('needs a token', async () => {
    expect((await accept(allTicked, null)).statusCode).toBe(401);
  });
});

describe('POST /api/auth/validate-address', () => {
  const address = { address: '350 5th Ave', city: 'new york ', state: 'ny', zip_code: '10001' };

  function validate(payload: Record<string, unknown>, token: string | null = user.token) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/auth/validate-address',
      headers: token ? bearer(token) : {},
      payload,
    });
  }

  it('answers the canonical city and state, in the US', async () => {
    const response = await validate(address);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { address: '350 5th Ave', city: 'New York', state: 'NY', zip_code: '10001', country: 'US' },
    });
  });

  it('accepts a full state name, a zip+4 and the usual city abbreviations', async () => {
    const full = await validate({ ...address, state: 'New York', zip_code: '10001-1234' });
    expect(full.json()).toMatchObject({ data: { state: 'NY', zip_code: '10001-1234' } });
    const saint = await validate({
      address: '1 Market St',
      city: 'St. Louis',
      state: 'MO',
      zip_code: '63101',
    });
    expect(saint.json()).toMatchObject({ data: { city: 'Saint Louis' } });
  });

  it('says where the zip really is when the city or the state disagrees', async () => {
    const city = await validate({ ...address, city: 'Boston', state: 'MA' });
    expect(city.statusCode).toBe(400);
    expect(city.json()).toEqual({ message: 'Zip code 10001 is in New York, NY, not Boston, MA.' });
    const state = await validate({ ...address, city: 'New York', state: 'NJ' });
    expect(state.json()).toEqual({ message: 'Zip code 10001 is in New York, NY, not New York, NJ.' });
  });

  it('refuses an unknown zip', async () => {
    const response = await validate({ ...address, zip_code: '00000' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.zipUnknown });
  });

  it.each([
    ['address', '', AUTH_MESSAGES.addressRequired],
    ['address', 'x'.repeat(201), AUTH_MESSAGES.addressFieldTooLong],
    ['city', '', AUTH_MESSAGES.cityRequired],
    ['city', 'x'.repeat(101), AUTH_MESSAGES.addressFieldTooLong],
    ['state', '', AUTH_MESSAGES.stateRequired],
    ['state', 'x'.repeat(51), AUTH_MESSAGES.addressFieldTooLong],
    ['zip_code', '560001', AUTH_MESSAGES.usZipInvalid],
    ['zip_code', '', AUTH_MESSAGES.usZipInvalid],
  ])('refuses a bad %s (%j) with 400', async (field, value, message) => {
    const response = await validate({ ...address, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
  });

  it.each([
    ['address', '350 5th Ave\u0000', TEXT_MESSAGES.controlCharacters],
    ['address', '350 5th Ave\uD800', TEXT_MESSAGES.brokenCharacters],
    ['city', 'New\u0000York', TEXT_MESSAGES.controlCharacters],
    ['city', '\uDC00New York', TEXT_MESSAGES.brokenCharacters],
    ['state', 'N\u0000Y', TEXT_MESSAGES.controlCharacters],
    ['state', 'NY\uD800', TEXT_MESSAGES.brokenCharacters],
  ])('refuses %s %j with 400 and its message, never 500', async (field, value, message) => {
    const response = await validate({ ...address, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ msg: message, path: field }] });
  });

  it('is limited per person', async () => {
    const other = await createUser(ctx);
    const statuses: number[] = [];
    for (let i = 0; i <= VALIDATE_ADDRESS_PER_MINUTE; i += 1)
      statuses.push((await validate(address)).statusCode);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await validate(address, other.token)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    expect((await validate(address, null)).statusCode).toBe(401);
  });
});
