import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, scrubText, summarizeError } from '../../src/server/plugins/logging';
import {
  acceptBetaPolicy,
  lastMailTo,
  mailText,
  multipartForm,
  readMailbox,
  startTestApp,
  type TestContext,
} from './helpers';
import { TINY_PNG } from '../fixtures/images';

// No health data and no secret in the server's log. The real app runs with its log captured at 'trace'
// (everything it would ever write), and one scenario walks every route family with distinctive health
// details, e-mails, passwords, tokens, a reset code and signed file links, including the ways a request
// fails: bad characters in a field, a database error in the middle of a write (a trigger makes one), and
// a database that has gone away. Then none of those strings may appear anywhere in the log.

const run = randomUUID().slice(0, 8);
const secrets = {
  patientEmail: `lenora.quill.${run}@phi-example.org`,
  carerEmail: `ottoline.brack.${run}@phi-example.org`,
  strangerEmail: `nobody.${run}@phi-example.org`,
  patientName: `Lenora Quillfeather ${run}`,
  carerName: `Ottoline Brackwater ${run}`,
  password: `Quartz-Harbor-${run}-Lantern!`,
  resetPassword: `Velvet-Canyon-${run}-Meadow!`,
  changedPassword: `Copper-Glacier-${run}-Orchard!`,
  address: `742 Evergreen Terrace PHI${run}`,
  city: `Springfieldia${run}`,
  phone: '(415) 555-0199',
  birthDate: '1961-07-14',
  title: `Oncology consult PHI-TITLE-${run}`,
  location: `St Elsewhere Clinic PHI-LOC-${run}`,
  notes: `Reports severe migraines, family history of Huntington disease PHI-NOTE-${run}`,
  updatedNotes: `Biopsy booked for Tuesday PHI-UPDATE-${run}`,
  syncNotes: `Metformin 500mg twice daily PHI-SYNC-${run}`,
  nulNotes: `HIV test result PHI-NUL-${run}`,
  surrogateNotes: `Depression screening PHI-SURROGATE-${run}`,
  forcedNotes: `Chemotherapy cycle 3 PHI-FORCED-${run} FORCE-500`,
  forcedSyncNotes: `Dialysis schedule PHI-FORCEDSYNC-${run} FORCE-500`,
  cookie: `COOKIE-SECRET-${run}`,
  queryToken: `QUERY-TOKEN-${run}`,
};
/** Strings met during the scenario: tokens, codes, signatures. */
const found: Record<string, string> = {};

let ctx: TestContext;
let databaseClosed = false;
beforeAll(async () => {
  ctx = await startTestApp({}, { captureLogs: true });
});
afterAll(async () => {
  if (databaseClosed) {
    await ctx.app.close();
    return;
  }
  await ctx.close();
});

type CallOptions = { token?: string; payload?: InjectOptions['payload']; headers?: Record<string, string> };
function call(method: InjectOptions['method'], url: string, options: CallOptions = {}) {
  return ctx.app.inject({
    method,
    url,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
}

async function waitForMail(email: string, matching: RegExp): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const mail = lastMailTo(ctx, email);
    if (mail && matching.test(mail)) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail matching ${matching} arrived`);
}

/** Registers, follows the mailed link and signs in; answers the token. */
async function signUp(name: string, email: string, role: 'Patient' | 'Caregiver'): Promise<string> {
  const registered = await call('POST', '/api/auth/register', {
    payload: { name, email, password: secrets.password, role, zip_code: '10001' },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const verification = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(await waitForMail(email, /verify-email/))?.[1];
  if (!verification) throw new Error('no verification link');
  found[`verification-${role}`] = verification;
  const verified = await call('POST', '/api/auth/verify-email', { payload: { token: verification } });
  expect(verified.statusCode, verified.body).toBe(200);
  let login = await call('POST', '/api/auth/login', { payload: { email, password: secrets.password } });
  if (role === 'Patient') {
    // A new patient chooses a plan first, with the short-lived token of the 403: it must not be logged.
    expect(login.json(), login.body).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' });
    const { userId, subscribeToken } = login.json<{ userId: string; subscribeToken: string }>();
    found.subscribeToken = subscribeToken;
    const chosen = await call('POST', '/api/stripe/subscribe', {
      payload: { planId: 'free', userId, subscribeToken },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    login = await call('POST', '/api/auth/login', { payload: { email, password: secrets.password } });
  }
  expect(login.statusCode, login.body).toBe(200);
  const token = login.json<{ accessToken: string }>().accessToken;
  found[`token-${role}`] = token;
  await acceptBetaPolicy(ctx, token);
  return token;
}

/** A trigger that fails any records write whose data holds FORCE-500: a 500 in the middle of a real write. */
async function installFailingTrigger() {
  await ctx.database.db.execute(
    sql.raw(`create or replace function kincare_test_force_500() returns trigger language plpgsql as $$
      begin
        if new.data::text like '%FORCE-500%' then raise exception 'forced failure for the log test'; end if;
        return new;
      end $$`),
  );
  await ctx.database.db.execute(
    sql.raw(`create trigger kincare_test_force_500 before insert or update on records
      for each row execute function kincare_test_force_500()`),
  );
}

async function removeFailingTrigger() {
  await ctx.database.db.execute(sql.raw('drop trigger if exists kincare_test_force_500 on records'));
  await ctx.database.db.execute(sql.raw('drop function if exists kincare_test_force_500()'));
}

const appointment = (patientId: string, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  patient_id: patientId,
  appointment_title: secrets.title,
  appointment_date: '2027-03-04T10:30:00Z',
  location: secrets.location,
  notes: secrets.notes,
  ...extra,
});

describe('the log of a whole scenario', () => {
  it('holds none of the health details, e-mails, passwords, tokens, codes or signed links it saw', async () => {
    // ---- accounts ----
    let patientToken = await signUp(secrets.patientName, secrets.patientEmail, 'Patient');
    const carerToken = await signUp(secrets.carerName, secrets.carerEmail, 'Caregiver');
    const failedLogin = await call('POST', '/api/auth/login', {
      payload: { email: secrets.strangerEmail, password: secrets.password },
    });
    expect(failedLogin.statusCode).toBeGreaterThanOrEqual(400);

    // ---- forgotten password: code by mail, verify it, reset ----
    const forgot = await call('POST', '/api/auth/forgot-password', {
      payload: { email: secrets.patientEmail },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const code = /password is (?:<strong>)?(\d{6})/.exec(
      mailText(await waitForMail(secrets.patientEmail, /password is/)),
    )?.[1];
    if (!code) throw new Error('no reset code');
    found.resetCode = code;
    const verified = await call('POST', '/api/auth/verify-otp', {
      payload: { email: secrets.patientEmail, otp: code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const resetToken = verified.json<{ resetToken?: string }>().resetToken ?? '';
    if (resetToken) found.resetToken = resetToken;
    const reset = await call('POST', '/api/auth/reset-password', {
      payload: { email: secrets.patientEmail, newPassword: secrets.resetPassword, resetToken },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const again = await call('POST', '/api/auth/login', {
      payload: { email: secrets.patientEmail, password: secrets.resetPassword },
    });
    expect(again.statusCode, again.body).toBe(200);
    patientToken = again.json<{ accessToken: string }>().accessToken;
    found.tokenAfterReset = patientToken;
    const changed = await call('PUT', '/api/auth/change-password', {
      token: patientToken,
      payload: {
        old_password: secrets.resetPassword,
        new_password: secrets.changedPassword,
        confirm_password: secrets.changedPassword,
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    patientToken = changed.json<{ accessToken: string }>().accessToken;
    found.tokenAfterChange = patientToken;

    // ---- profile, photo, people ----
    const form = multipartForm(
      {
        name: secrets.patientName,
        address: secrets.address,
        city: secrets.city,
        phone: secrets.phone,
        birth_date: secrets.birthDate,
      },
      [{ field: 'photo', filename: 'me.png', contentType: 'image/png', bytes: TINY_PNG }],
    );
    const updated = await call('PUT', '/api/auth/update-profile', {
      token: patientToken,
      payload: form.payload,
      headers: form.headers,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const profile = await call('GET', '/api/auth/profile', { token: patientToken });
    expect(profile.statusCode).toBe(200);
    const me = profile.json<{ data: { id: string; patient_id: string; photo_url: string | null } }>().data;
    if (me.photo_url) {
      found.photoSignature = new URL(me.photo_url, 'http://x').searchParams.get('signature') ?? '';
      expect((await call('GET', me.photo_url)).statusCode).toBe(200);
    }
    await call('GET', `/api/auth/user-info?email=${encodeURIComponent(secrets.carerEmail)}`, {
      token: patientToken,
    });
    await call('GET', `/api/auth/${me.id}`, { token: patientToken });
    await call('POST', '/api/auth/validate-address', {
      token: patientToken,
      payload: { address: secrets.address, city: secrets.city, state: 'NY', zip_code: '10001' },
    });
    await call('GET', '/api/auth/sessions', { token: patientToken });

    // ---- a file, and the links to it ----
    const upload = multipartForm({}, [
      { field: 'image', filename: 'letter.png', contentType: 'image/png', bytes: TINY_PNG },
    ]);
    const uploaded = await call('POST', '/api/upload-image?type=appointment', {
      token: patientToken,
      payload: upload.payload,
      // A form's headers are logged by the multipart parser at trace level.
      headers: { ...upload.headers, cookie: `session=${secrets.cookie}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json<{ files: { key: string; url: string }[] }>().files[0];
    if (!file) throw new Error('no file');
    found.uploadSignature = new URL(file.url, 'http://x').searchParams.get('signature') ?? '';
    expect((await call('GET', file.url)).statusCode).toBe(200);
    const preview = await call('GET', `/api/upload-image/preview_image?key=${encodeURIComponent(file.key)}`, {
      token: patientToken,
    });
    const previewUrl = preview.json<{ url: string }>().url;
    found.previewSignature = new URL(previewUrl, 'http://x').searchParams.get('signature') ?? '';
    expect((await call('GET', previewUrl)).statusCode).toBe(200);

    // ---- appointments ----
    const created = await call('POST', '/api/appointments', {
      token: patientToken,
      payload: appointment(me.patient_id, { attachment_key: file.key }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ data: { id: string } }>().data.id;
    const edited = await call('PUT', `/api/appointments/${id}`, {
      token: patientToken,
      payload: { notes: secrets.updatedNotes },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await call('GET', `/api/appointments?patient_id=${me.patient_id}`, { token: patientToken });
    await call('GET', `/api/appointments/${id}`, { token: patientToken });
    await call('GET', `/api/appointments/${id}`, { token: carerToken }); // not theirs

    // ---- sync ----
    const push = (notes: string) =>
      call('POST', '/api/sync/push', {
        token: patientToken,
        payload: {
          changes: [
            {
              idempotency_key: `log-test-${randomUUID()}`,
              resource: 'appointments',
              op: 'create',
              id: randomUUID(),
              payload: appointment(me.patient_id, { id: undefined, notes }),
            },
          ],
        },
      });
    expect((await push(secrets.syncNotes)).statusCode).toBe(200);
    expect((await call('GET', '/api/sync/pull?cursor=0', { token: patientToken })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/appointments/${id}`, { token: patientToken })).statusCode).toBe(200);

    // ---- bad characters: refused (400) or, before that fix, a database error (500) ----
    const nul = await call('POST', '/api/appointments', {
      token: patientToken,
      payload: appointment(me.patient_id, { notes: `${secrets.nulNotes}\u0000after` }),
    });
    expect([400, 500]).toContain(nul.statusCode);
    const surrogate = await call('POST', '/api/appointments', {
      token: patientToken,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(appointment(me.patient_id, { notes: `${secrets.surrogateNotes}\ud800` })),
    });
    expect([201, 400, 500]).toContain(surrogate.statusCode);

    // ---- a database error in the middle of a write, through REST and through sync ----
    await installFailingTrigger();
    try {
      const forced = await call('POST', '/api/appointments', {
        token: patientToken,
        payload: appointment(me.patient_id, { notes: secrets.forcedNotes }),
      });
      expect(forced.statusCode).toBe(500);
      const forcedSync = await push(secrets.forcedSyncNotes);
      expect(forcedSync.statusCode).toBe(200);
    } finally {
      await removeFailingTrigger();
    }

    // ---- secrets in places a request log would see ----
    await call(
      'GET',
      `/api/nothing?email=${encodeURIComponent(secrets.patientEmail)}&token=${secrets.queryToken}`,
    );
    await call(
      'GET',
      `/no-such-file.js?signature=${secrets.queryToken}&email=${encodeURIComponent(secrets.carerEmail)}`,
    );
    await call('GET', '/api/auth/profile', {
      headers: { authorization: `Bearer ${found.tokenAfterReset}`, cookie: `session=${secrets.cookie}` },
    });
    await call('GET', `/api/auth/${encodeURIComponent(secrets.patientEmail)}`, { token: patientToken });
    await call('POST', '/api/auth/logout', { token: patientToken });

    // ---- the database goes away: every query fails, with its parameters in the driver's error ----
    await ctx.database.close();
    databaseClosed = true;
    const down = await call('POST', '/api/auth/login', {
      payload: { email: secrets.patientEmail, password: secrets.changedPassword },
    });
    expect(down.statusCode).toBeGreaterThanOrEqual(500);
    expect((await call('GET', '/api/health')).statusCode).toBeGreaterThanOrEqual(500);
    expect(readMailbox(ctx).length).toBeGreaterThan(0);

    // ---- the log ----
    const log = ctx.logs();
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(50);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The failures were logged, as summaries: where it failed, never with what.
    const failures = entries.filter((entry) => entry.msg === 'request failed');
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).toMatch(/insert into \\"records\\"/);
    expect(entries.some((entry) => entry.msg === 'mail written to the local mailbox')).toBe(true);

    for (const [name, value] of Object.entries({ ...secrets, ...found })) {
      if (!value) continue;
      if (/^\d+$/.test(value)) {
        expect(new RegExp(`(?<!\\d)${value}(?!\\d)`).test(log), `${name} (${value}) is in the log`).toBe(
          false,
        );
      } else {
        expect(log.includes(value), `${name} (${value}) is in the log`).toBe(false);
      }
    }
    // Parts of tokens, and things no log line should hold whatever the test's own strings were.
    for (const token of Object.entries(found).filter(([name]) => name.startsWith('token'))) {
      const signature = token[1].split('.')[2] ?? '';
      expect(log.includes(signature), `${token[0]}'s signature is in the log`).toBe(false);
    }
    expect(log).not.toMatch(/\$argon2/);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
    expect(log).not.toMatch(/Bearer /i);
    expect(log).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
    expect(log).not.toMatch(/signature=/);
    expect(log).not.toMatch(/params:/);
  });
});

describe('the log in general', () => {
  it('scrubs e-mails, tokens, password hashes and query strings from any log call', async () => {
    const quiet = await startTestApp({}, { captureLogs: true });
    try {
      quiet.app.log.info(
        {
          someone: `who.ever.${run}@example.com`,
          link: `/api/files/lab/x.pdf?expires=1&signature=SIG${run}`,
          header: `Bearer SECRET${run}`,
          hash: `$argon2id$v=19$m=19456,t=2,p=1$SALT${run}$HASH${run}`,
          nested: { jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${run}.c2lnbmF0dXJl` },
        },
        `a message naming who.ever.${run}@example.com`,
      );
      const log = quiet.logs();
      for (const secret of [
        'who.ever',
        `SIG${run}`,
        `SECRET${run}`,
        `SALT${run}`,
        `HASH${run}`,
        'eyJhbGci',
      ]) {
        expect(log, secret).not.toContain(secret);
      }
      expect(log).toContain('/api/files/lab/x.pdf?[query]');
      expect(log).toContain('[email]');
    } finally {
      await quiet.close();
    }
  });

  it('scrubs a long hostile line in one pass, not one per character (the fuzz gate found 85 s on 150 kB)', () => {
    // Quadratic patterns take minutes on these; linear ones take milliseconds. The bound is far from both.
    for (const unit of ['a', '%22%5C', '/', 'a/', '?/', 'x.', 'a@b']) {
      const line = `{"url":"${unit.repeat(Math.ceil(200_000 / unit.length))}?email=x@y.org"}`;
      const started = performance.now();
      const scrubbed = scrubText(line);
      expect(performance.now() - started, JSON.stringify(unit)).toBeLessThan(2_000);
      expect(scrubbed).not.toContain('x@y.org');
    }
    expect(pathOf(`/api/files/${'a'.repeat(10_000)}?signature=s`).length).toBeLessThan(600);
  });

  it('keeps the tokens of page links out of logged paths (verification, invitation, onboarding)', () => {
    const token = 'Zx9_k-3QmP7wLr2VtY8nB4cD6fGhJ1sA0eRuIoK5lMq';
    for (const path of [
      `/verify-email/${token}`,
      `/invite/register/${token}`,
      `/onboarding/${token}`,
      `/api/auth/invite/${token}`,
    ]) {
      const logged = pathOf(path);
      expect(logged, path).not.toContain(token);
      expect(logged).toContain('[redacted]');
    }
    // Ordinary ids in paths stay readable: they are what an operator looks for.
    expect(pathOf('/api/appointments/4b6f1c2e-8a7d-4e3f-9b1a-2c3d4e5f6a7b')).toContain('4b6f1c2e');
  });

  it('summarises a failed query as its statement, never its parameters or the driver’s details', () => {
    const cause = Object.assign(
      new Error(`duplicate key value violates unique constraint "users_email_unique"`),
      {
        code: '23505',
        severity: 'ERROR',
        table: 'users',
        constraint: 'users_email_unique',
        detail: `Key (email)=(leak.${run}@example.com) already exists.`,
        where: `unnamed portal parameter $2 = 'LEAK-${run}'`,
      },
    );
    const failed = Object.assign(
      new Error(
        `Failed query: insert into "users" ("email", "name") values ($1, $2)\nparams: leak.${run}@example.com,LEAK-${run}`,
      ),
      {
        query: 'insert into "users" ("email", "name") values ($1, $2)',
        params: [`leak.${run}@example.com`, `LEAK-${run}`],
        cause,
      },
    );
    const summary = summarizeError(failed);
    const text = JSON.stringify(summary);
    expect(text).not.toContain(`LEAK-${run}`);
    expect(text).not.toContain('leak.');
    expect(summary).toMatchObject({
      message: 'Failed query',
      statement: 'insert into "users" ("email", "name") values ($1, $2)',
      cause: { code: '23505', database: { table: 'users', constraint: 'users_email_unique' } },
    });
    expect(summary.stack).toMatch(/^\s+at /);
  });
});
