import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fetchHttp, makePerson, signInThroughApi } from '../fixtures/seed';
import { TEST_JWT_SECRET, type ServerProcess } from './server-process';

// People made the way a person makes them (tests/fixtures/seed.ts, as the benchmarks and the browser tests
// make theirs): sign-up through the API, the verification link read from the server's local mailbox
// (DATA_DIR/mail), the Free plan, the beta policy, sign-in for a real token. And a token that has expired,
// signed with the server's fixed secret and the claims of src/server/plugins/auth.ts, to make the server
// say 401.

export type ApiAccount = {
  email: string;
  password: string;
  userId: string;
  patientId: string | null;
  caregiverId: string | null;
};

const httpOf = (server: ServerProcess) => fetchHttp(new URL(server.baseURL).origin);

/** Signs up, verifies the address from the mailed link, and reads the new account's ids. */
export async function registerThroughApi(
  server: ServerProcess,
  role: 'Patient' | 'Caregiver',
  name: string = role,
): Promise<ApiAccount> {
  const { email, password, userId, profile } = await makePerson(
    httpOf(server),
    join(server.dataDir, 'mail'),
    {
      role,
      name,
      email: `${role.toLowerCase()}-${randomUUID()}@example.com`,
      password: `chaos-${randomUUID()}-1`,
    },
  );
  return { email, password, userId, patientId: profile.patient_id, caregiverId: profile.caregiver_id };
}

/** POST /api/auth/login: a fresh, real token. */
export async function signIn(server: ServerProcess, account: { email: string; password: string }) {
  return (await signInThroughApi(httpOf(server), account)).token;
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
