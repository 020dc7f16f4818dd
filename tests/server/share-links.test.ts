import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { patientSummary, type PatientSummary } from '../../src/domain/patient-summary';
import { SHARE_LINK_LIMITS, SHARE_LINK_MESSAGES, type ShareLink } from '../../src/domain/share-links';
import { shareLinkOpens, shareLinks } from '../../src/server/db/schema';
import { dropEndedSnapshots } from '../../src/server/services/share-links';
import { newShareKey, sealSnapshot } from '../../src/local/share-links';
import { openSnapshot } from '../../src/local/shared-summary';
import { summaryInput } from '../fixtures/summary-records';
import { resetDatabase, startTestApp, type TestContext } from './helpers';
import { as, link, makePerson, type Person } from './fixtures';

// Share links on the real app: a link made with the device's own encryption, opened by its manifest
// address with and without a passcode, run out of passcode tries (also by guesses sent at once), expired,
// turned off; what the server stores shown to hold none of the patient's words nor the link's secret; who
// may make, list and turn off links; bad input refused in words.

let ctx: TestContext;
let patient: Person;
let summary: PatientSummary;
/** Each test asks the manifest from an address of its own, so the per-address limit is its own. */
let address = 0;
const nextAddress = () => `198.51.100.${++address}`;

beforeAll(async () => {
  ctx = await startTestApp();
  summary = await patientSummary(summaryInput());
}, 60_000);
afterAll(async () => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx);
  patient = await makePerson(ctx, 'Patient', 'Pat Share');
});

type Made = { link: ShareLink; token: string; key: Uint8Array; snapshot: string };

/** POST /api/share-links as `person`, with a fresh snapshot of the summary unless `fields` gives one. */
async function postLink(person: Person, fields: object = {}) {
  const snapshot = await sealSnapshot(summary, newShareKey());
  return as(ctx, person, {
    method: 'POST',
    url: '/api/share-links',
    payload: { label: 'For Dr. Lee', expires_in_seconds: 3600, snapshot, ...fields },
  });
}

async function makeLink(
  person: Person,
  fields: { label?: string; expires_in_seconds?: number; passcode?: string } = {},
): Promise<Made> {
  const key = newShareKey();
  const snapshot = await sealSnapshot(summary, key);
  const response = await as(ctx, person, {
    method: 'POST',
    url: '/api/share-links',
    payload: { label: 'For Dr. Lee', expires_in_seconds: 86_400, snapshot, ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...response.json<{ link: ShareLink; token: string }>(), key, snapshot };
}

function open(token: string, body: object, remoteAddress = nextAddress()) {
  return ctx.app.inject({ method: 'POST', url: `/api/shl/${token}`, payload: body, remoteAddress });
}

const storedRow = async (id: string) =>
  (await ctx.database.db.select().from(shareLinks).where(eq(shareLinks.id, id)))[0];

describe('a share link', () => {
  it('stores ciphertext the server cannot read, and hands it to whoever holds the link', async () => {
    const made = await makeLink(patient);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.link).toMatchObject({
      label: 'For Dr. Lee',
      has_passcode: false,
      revoked_at: null,
      opens: [],
    });
    expect(Date.parse(made.link.expires_at) - Date.parse(made.link.created_at)).toBe(86_400_000);

    // What the server keeps: none of the patient's words, not the link's secret nor its key.
    const row = await storedRow(made.link.id);
    const stored = JSON.stringify(row);
    for (const word of [
      'O’Brien',
      'Metformin',
      'Lisinopril',
      'Penicillin',
      'Peanuts',
      'Type 2 diabetes',
      'Glucose',
    ])
      expect(stored).not.toContain(word);
    expect(JSON.stringify(summary)).toContain('Metformin');
    expect(stored).not.toContain(made.token);
    expect(stored).not.toContain(Buffer.from(made.key).toString('base64url'));
    expect(row?.snapshot).toBe(made.snapshot);

    const opened = await open(made.token, { recipient: 'Dr. Lee, Mercy Clinic' });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.headers['access-control-allow-origin']).toBe('*');
    const manifest = opened.json<{ files: { contentType: string; embedded: string }[] }>();
    expect(manifest.files).toHaveLength(1);
    expect(manifest.files[0]?.contentType).toBe('application/fhir+json');
    expect(await openSnapshot(manifest.files[0]?.embedded ?? '', made.key)).toEqual(summary);
    // Another key opens nothing.
    await expect(openSnapshot(manifest.files[0]?.embedded ?? '', newShareKey())).rejects.toThrow(
      SHARE_LINK_MESSAGES.unreadable,
    );

    const listed = await as(ctx, patient, { method: 'GET', url: '/api/share-links' });
    expect(listed.statusCode).toBe(200);
    const [entry] = listed.json<{ data: ShareLink[] }>().data;
    expect(entry?.opens).toEqual([{ at: expect.any(String), recipient: 'Dr. Lee, Mercy Clinic' }]);
    expect(listed.body).not.toContain(made.token);
  });

  it('asks for its passcode, counts wrong ones, and stops opening after too many', async () => {
    const made = await makeLink(patient, { passcode: 'tulip-42' });
    expect(made.link.has_passcode).toBe(true);
    const row = await storedRow(made.link.id);
    expect(row?.passcodeHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain('tulip-42');

    const without = await open(made.token, { recipient: 'Dr. Lee' });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({
      message: SHARE_LINK_MESSAGES.passcodeNeeded,
      remainingAttempts: SHARE_LINK_LIMITS.attempts,
    });
    const wrong = await open(made.token, { recipient: 'Dr. Lee', passcode: 'tulip-41' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: SHARE_LINK_MESSAGES.passcodeWrong(9), remainingAttempts: 9 });
    const right = await open(made.token, { recipient: 'Dr. Lee', passcode: 'tulip-42' });
    expect(right.statusCode, right.body).toBe(200);
    // A right passcode gives its try back: still 9.
    expect((await storedRow(made.link.id))?.attemptsLeft).toBe(9);

    for (let left = 8; left >= 1; left -= 1) {
      const guess = await open(made.token, { recipient: 'x', passcode: `guess-${left}` });
      expect(guess.json()).toMatchObject({ remainingAttempts: left });
    }
    const last = await open(made.token, { recipient: 'x', passcode: 'guess-0' });
    expect(last.statusCode).toBe(401);
    expect(last.json()).toEqual({ message: SHARE_LINK_MESSAGES.locked, remainingAttempts: 0 });
    // Locked: even the right passcode no longer opens it, and the patient's list says so.
    const after = await open(made.token, { recipient: 'Dr. Lee', passcode: 'tulip-42' });
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual({ message: SHARE_LINK_MESSAGES.locked });
    const listed = await as(ctx, patient, { method: 'GET', url: '/api/share-links' });
    expect(listed.json<{ data: ShareLink[] }>().data[0]).toMatchObject({ attempts_left: 0 });
    expect(await dropEndedSnapshots(ctx.database.db)).toBe(1);
    expect((await storedRow(made.link.id))?.snapshot).toBeNull();
  });

  it('checks no more guesses than its tries, however many arrive at once', async () => {
    const made = await makeLink(patient, { passcode: 'tulip-42' });
    // The right passcode among 25 wrong ones, all sent together (from many addresses).
    const guesses = Array.from({ length: 25 }, (_, index) => `wrong-${index}`);
    guesses.splice(20, 0, 'tulip-42');
    const answers = await Promise.all(
      guesses.map((passcode) => open(made.token, { recipient: 'x', passcode })),
    );
    const checked = answers.filter(({ statusCode }) => statusCode === 401 || statusCode === 200);
    expect(checked.length).toBeLessThanOrEqual(SHARE_LINK_LIMITS.attempts);
    expect(answers.filter(({ statusCode }) => statusCode === 404).length).toBeGreaterThanOrEqual(
      guesses.length - SHARE_LINK_LIMITS.attempts,
    );
    expect((await storedRow(made.link.id))?.attemptsLeft).toBeGreaterThanOrEqual(0);
  });

  it('answers plainly once it has expired, and its snapshot is dropped', async () => {
    const made = await makeLink(patient, { expires_in_seconds: 3600 });
    await ctx.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, made.link.id));
    const opened = await open(made.token, { recipient: 'Dr. Lee' });
    expect(opened.statusCode).toBe(404);
    expect(opened.json()).toEqual({ message: SHARE_LINK_MESSAGES.expired });
    const live = await makeLink(patient);
    expect(await dropEndedSnapshots(ctx.database.db)).toBe(1);
    expect((await storedRow(made.link.id))?.snapshot).toBeNull();
    expect((await storedRow(live.link.id))?.snapshot).toBe(live.snapshot);
  });

  it('is turned off by its patient for good, keeping who opened it', async () => {
    const made = await makeLink(patient);
    await open(made.token, { recipient: 'Dr. Lee' });
    const revoked = await as(ctx, patient, { method: 'DELETE', url: `/api/share-links/${made.link.id}` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const link = revoked.json<ShareLink>();
    expect(link.revoked_at).not.toBeNull();
    expect(link.opens).toHaveLength(1);
    expect((await storedRow(made.link.id))?.snapshot).toBeNull();
    const opened = await open(made.token, { recipient: 'Dr. Lee' });
    expect(opened.statusCode).toBe(404);
    expect(opened.json()).toEqual({ message: SHARE_LINK_MESSAGES.revoked });
    // Again: nothing changes, not even when it was turned off.
    const again = await as(ctx, patient, { method: 'DELETE', url: `/api/share-links/${made.link.id}` });
    expect(again.json<ShareLink>().revoked_at).toBe(link.revoked_at);
  });

  it('does not open with a made-up or cut-off address', async () => {
    const made = await makeLink(patient);
    const madeUp = await open('B'.repeat(43), { recipient: 'Dr. Lee' });
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json()).toEqual({ message: SHARE_LINK_MESSAGES.notFound });
    const cut = await open(made.token.slice(0, 30), { recipient: 'Dr. Lee' });
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ message: SHARE_LINK_MESSAGES.notFound });
    const nobody = await open(made.token, { recipient: '   ' });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json()).toMatchObject({ message: SHARE_LINK_MESSAGES.recipientRequired });
    expect(await ctx.database.db.select().from(shareLinkOpens)).toEqual([]);
  });

  it('lets any site ask its manifest (CORS preflight)', async () => {
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: `/api/shl/${'A'.repeat(43)}`,
      headers: { origin: 'https://viewer.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
  });

  it('limits how often one address may ask', async () => {
    const made = await makeLink(patient, { passcode: 'tulip-42' });
    const from = nextAddress();
    const statuses: number[] = [];
    for (let index = 0; index < 31; index += 1)
      statuses.push((await open(made.token, { recipient: 'x' }, from)).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('who may make, list and turn off links', () => {
  it('may make only a few links a minute', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      statuses.push((await postLink(patient, { label: `Link ${index}` })).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
  });

  it('is the patient alone: a caregiver, even linked with every permission, may not', async () => {
    const caregiver = await makePerson(ctx, 'Caregiver', 'Cara Giver');
    await link(ctx, patient, caregiver, ['ReadMedicalHistory', 'ReadPrescription', 'ReadLabReport']);
    const made = await makeLink(patient);
    const key = newShareKey();
    const snapshot = await sealSnapshot(summary, key);
    const attempts = [
      { method: 'GET' as const, url: '/api/share-links' },
      {
        method: 'POST' as const,
        url: '/api/share-links',
        payload: { label: 'x', expires_in_seconds: 3600, snapshot },
      },
      { method: 'DELETE' as const, url: `/api/share-links/${made.link.id}` },
    ];
    for (const attempt of attempts) {
      const answer = await as(ctx, caregiver, attempt);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ message: SHARE_LINK_MESSAGES.patientsOnly });
    }
    expect((await storedRow(made.link.id))?.revokedAt).toBeNull();
  });

  it("is not another patient's: they neither see nor turn off the owner's links", async () => {
    const made = await makeLink(patient);
    const other = await makePerson(ctx, 'Patient', 'Other Patient');
    const listed = await as(ctx, other, { method: 'GET', url: '/api/share-links' });
    expect(listed.json()).toEqual({ data: [] });
    const revoke = await as(ctx, other, { method: 'DELETE', url: `/api/share-links/${made.link.id}` });
    expect(revoke.statusCode).toBe(404);
    expect((await storedRow(made.link.id))?.revokedAt).toBeNull();
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/share-links' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('waits for the beta policy, as every change does', async () => {
    const newcomer = await makePerson(ctx, 'Patient', 'New Comer', { acceptedBetaPolicy: false });
    expect((await postLink(newcomer)).statusCode).toBe(403);
  });

  it(`holds at most ${SHARE_LINK_LIMITS.activePerPatient} open links per patient`, async () => {
    const first = await makeLink(patient);
    // The others straight into the table: making them by the API would meet the per-minute limit first.
    const others = Array.from({ length: SHARE_LINK_LIMITS.activePerPatient - 1 }, (_, index) => ({
      patientId: patient.patientId ?? '',
      createdBy: patient.userId,
      tokenHash: `seeded-${index}`,
      label: `Link ${index}`,
      attemptsLeft: SHARE_LINK_LIMITS.attempts,
      expiresAt: new Date(Date.now() + 3_600_000),
      snapshot: first.snapshot,
    }));
    await ctx.database.db.insert(shareLinks).values(others);
    const refused = await postLink(patient, { label: 'One more' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: SHARE_LINK_MESSAGES.tooManyLinks });
    await as(ctx, patient, { method: 'DELETE', url: `/api/share-links/${first.link.id}` });
    await makeLink(patient);
  });
});

describe('what a new link must be', () => {
  const refusals: [string, object, string][] = [
    ['no name', { label: '  ' }, SHARE_LINK_MESSAGES.labelRequired],
    ['a long name', { label: 'x'.repeat(81) }, SHARE_LINK_MESSAGES.labelTooLong],
    ['under an hour', { expires_in_seconds: 600 }, SHARE_LINK_MESSAGES.expiryInvalid],
    ['over thirty days', { expires_in_seconds: 31 * 86_400 }, SHARE_LINK_MESSAGES.expiryInvalid],
    ['an expiry in words', { expires_in_seconds: 'a week' }, SHARE_LINK_MESSAGES.expiryInvalid],
    ['a short passcode', { passcode: 'abc' }, SHARE_LINK_MESSAGES.passcodeTooShort],
    [
      'a summary in the clear',
      { snapshot: JSON.stringify({ name: 'Pat' }) },
      SHARE_LINK_MESSAGES.snapshotInvalid,
    ],
    [
      'a JWE for a key the server would hold',
      {
        snapshot: `${Buffer.from('{"alg":"RSA-OAEP","enc":"A256GCM"}').toString('base64url')}.abc.${'A'.repeat(16)}.abcd.${'C'.repeat(22)}`,
      },
      SHARE_LINK_MESSAGES.snapshotInvalid,
    ],
    ['no summary', { snapshot: undefined }, SHARE_LINK_MESSAGES.snapshotInvalid],
  ];
  it.each(refusals)('refuses %s, in words, and stores nothing', async (_case, fields, message) => {
    const answer = await postLink(patient, fields);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json()).toMatchObject({ message });
    expect(await ctx.database.db.select().from(shareLinks)).toEqual([]);
  });

  it('refuses a summary too large to share, saying what to do instead', async () => {
    const header = Buffer.from('{"alg":"dir","enc":"A256GCM"}').toString('base64url');
    const snapshot = `${header}..${'A'.repeat(16)}.${'B'.repeat(SHARE_LINK_LIMITS.snapshotMaxChars)}.${'C'.repeat(22)}`;
    const answer = await postLink(patient, { label: 'Big', snapshot });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ message: SHARE_LINK_MESSAGES.snapshotTooLarge });
  });
});
