import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_JWT_SECRET, type ServerProcess } from './server-process';

// People made the way a person makes them: sign-up through the API, the verification link read from the
// server's local mailbox (DATA_DIR/mail), sign-in for a real token. And a token that has expired, signed
// with the server's fixed secret and the claims of src/server/plugins/auth.ts, to make the server say 401.

export type ApiAccount = {
  email: string;
  password: string;
  userId: string;
  patientId: string | null;
  caregiverId: string | null;
};

type Json = Record<string, unknown>;

async function call(server: ServerProcess, method: string, path: string, body?: Json, token?: string) {
  const response = await fetch(`${server.baseURL}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const data = (await response.json().catch(() => null)) as Json | null;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(data)}`);
  return data ?? {};
}

/** The e-mail as a person reads it: quoted-printable soft line breaks and escapes undone. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function verificationTokenFor(server: ServerProcess, email: string): string {
  const mailDir = join(server.dataDir, 'mail');
  const safeTo = email.replace(/[^a-z0-9@._-]/gi, '_');
  for (const file of readdirSync(mailDir).filter((name) => name.endsWith(`-${safeTo}.eml`))) {
    const match = /verify-email\/([A-Za-z0-9_-]{20,128})/.exec(
      decodeQuotedPrintable(readFileSync(join(mailDir, file), 'utf8')),
    );
    if (match?.[1]) return match[1];
  }
  throw new Error(`no verification mail for ${email} in ${mailDir}`);
}

/** Signs up, verifies the address from the mailed link, and reads the new account's ids. */
export async function registerThroughApi(
  server: ServerProcess,
  role: 'Patient' | 'Caregiver',
  name: string = role,
): Promise<ApiAccount> {
  const email = `${role.toLowerCase()}-${randomUUID()}@example.com`;
  const password = `chaos-${randomUUID()}-1`;
  await call(server, 'POST', '/auth/register', { name, email, password, role, zip_code: '10001' });
  await call(server, 'POST', '/auth/verify-email', { token: verificationTokenFor(server, email) });
  if (role === 'Patient') await chooseFreePlan(server, { email, password });
  const token = await signIn(server, { email, password });
  // As the app asks on the first sign-in: without it the server refuses every write.
  await call(
    server,
    'POST',
    '/auth/beta-policy',
    { notHipaa: true, notForMedicalDecisions: true, dataMayBeDeleted: true, agreeToPolicy: true },
    token,
  );
  const profile = (await call(server, 'GET', '/auth/profile', undefined, token)).data as Json;
  return {
    email,
    password,
    userId: String(profile.id),
    patientId: typeof profile.patient_id === 'string' ? profile.patient_id : null,
    caregiverId: typeof profile.caregiver_id === 'string' ? profile.caregiver_id : null,
  };
}

/** As a new patient's first sign-in asks (403 SUBSCRIPTION_REQUIRED): the Free plan, with its token. */
async function chooseFreePlan(server: ServerProcess, account: { email: string; password: string }) {
  const response = await fetch(`${server.baseURL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const refusal = (await response.json()) as Json;
  if (response.status !== 403 || refusal.code !== 'SUBSCRIPTION_REQUIRED')
    throw new Error(`a new patient's sign-in answered ${response.status}: ${JSON.stringify(refusal)}`);
  await call(server, 'POST', '/stripe/subscribe', {
    planId: 'free',
    userId: String(refusal.userId),
    subscribeToken: String(refusal.subscribeToken),
  });
}

/** POST /api/auth/login: a fresh, real token. */
export async function signIn(server: ServerProcess, account: { email: string; password: string }) {
  const data = await call(server, 'POST', '/auth/login', {
    email: account.email,
    password: account.password,
  });
  if (typeof data.accessToken !== 'string') throw new Error('login answered no token');
  return data.accessToken;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A token of this user that expired an hour ago (HS256, with the claims the server issues: sub, sid, iat, exp). */
export function expiredToken(userId: string, secret = TEST_JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ sub: userId, sid: randomUUID(), iat: now - 7200, exp: now - 3600 }),
  );
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
