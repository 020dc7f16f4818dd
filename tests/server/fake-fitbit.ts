import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local Fitbit of the tests' own: the OAuth 2.0 authorize page (it approves at once and sends the browser
// back to redirect_uri with code and state), the token endpoint (authorization_code with PKCE S256
// checked, refresh_token with rotation, invalid_grant for codes used or unknown and refresh tokens revoked
// or rotated away), and the three Web API reads the server makes, in Fitbit's shapes (401 expired_token
// for an expired access token). Knobs let a test expire tokens, revoke them, or take Fitbit down.

export type FakeFitbitDay = { date: string; steps: number; restingHeartRate: number | null; sleep: number[] };

export type FakeFitbit = {
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  /** When set, the token endpoint wants this secret in Basic auth (a confidential client). */
  clientSecret: string | undefined;
  /** Seconds an access token lives (expires_in). */
  accessTtlSeconds: number;
  /** Every Web API read and token call answers 503. */
  down: boolean;
  /** The days the Web API answers (the last is Fitbit's "today"). */
  days: FakeFitbitDay[];
  fitbitUserId: string;
  /** Every request's method and path, in order. */
  requests: { method: string; path: string }[];
  /** The form of every token request, and its Authorization header. */
  tokenRequests: { form: URLSearchParams; authorization: string | undefined }[];
  /** The token of every revoke request, in order. */
  revoked: string[];
  /** Approves a sign-in as the patient would: the code Fitbit would send back for this authorize URL. */
  approve: (authorizeUrl: string) => { code: string; state: string };
  /** Every access token given so far expires now (Fitbit then answers 401 expired_token). */
  expireAccessTokens: () => void;
  /** Every refresh token given so far is revoked (the patient removed the app in Fitbit). */
  revokeRefreshTokens: () => void;
  /** Forgets every code and token given, and the requests seen; puts the knobs back. */
  reset: () => void;
  /** The tokens currently valid (to look for them in the database). */
  liveTokens: () => { access: string[]; refresh: string[] };
  stop: () => Promise<void>;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const newToken = (kind: string) => `${kind}-${randomBytes(24).toString('base64url')}`;

/** 30 days ending on `lastDay`: plausible values, a gap on one day, two sleeps on another. */
export function sampleDays(lastDay: string = new Date().toISOString().slice(0, 10)): FakeFitbitDay[] {
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(`${lastDay}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - 29 + index);
    return {
      date: date.toISOString().slice(0, 10),
      steps: 4000 + index * 200,
      restingHeartRate: index === 3 ? null : 58 + (index % 7),
      sleep: index === 5 ? [] : index === 10 ? [300, 60] : [380 + (index % 5) * 10],
    };
  });
}

export async function startFakeFitbit(
  /** port: 0 (the default) takes any free one. */
  options: { clientId?: string; clientSecret?: string; port?: number } = {},
): Promise<FakeFitbit> {
  type Code = { challenge: string; method: string; redirectUri: string; used: boolean; state: string };
  const codes = new Map<string, Code>();
  // Each token belongs to a grant (one patient's consent): rotation keeps it, revoking ends all of it.
  const access = new Map<string, { expiresAt: number; grant: string }>();
  const refresh = new Map<string, string>();

  const fake = {
    clientId: options.clientId ?? 'fake-client',
    clientSecret: options.clientSecret,
    accessTtlSeconds: 28_800,
    down: false,
    days: sampleDays(),
    fitbitUserId: 'ABC123',
    requests: [] as { method: string; path: string }[],
    tokenRequests: [] as { form: URLSearchParams; authorization: string | undefined }[],
    revoked: [] as string[],
  };

  function issueCode(url: URL): { code: string; state: string } {
    const code = newToken('code');
    const state = url.searchParams.get('state') ?? '';
    codes.set(code, {
      challenge: url.searchParams.get('code_challenge') ?? '',
      method: url.searchParams.get('code_challenge_method') ?? '',
      redirectUri: url.searchParams.get('redirect_uri') ?? '',
      used: false,
      state,
    });
    return { code, state };
  }

  function tokens(grant: string = randomBytes(8).toString('hex')) {
    const accessToken = newToken('access');
    const refreshToken = newToken('refresh');
    access.set(accessToken, { expiresAt: Date.now() + fake.accessTtlSeconds * 1000, grant });
    refresh.set(refreshToken, grant);
    return {
      access_token: accessToken,
      expires_in: fake.accessTtlSeconds,
      refresh_token: refreshToken,
      scope: 'activity heartrate sleep',
      token_type: 'Bearer',
      user_id: fake.fitbitUserId,
    };
  }

  const send = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const fitbitError = (response: ServerResponse, status: number, errorType: string) =>
    send(response, status, {
      errors: [{ errorType, message: `${errorType} (fake Fitbit)` }],
      success: false,
    });

  function tokenEndpoint(request: IncomingMessage, form: URLSearchParams, response: ServerResponse) {
    fake.tokenRequests.push({ form, authorization: request.headers.authorization });
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return fitbitError(response, 400, 'invalid_request');
    if (fake.down) return fitbitError(response, 503, 'system');
    if (form.get('client_id') !== fake.clientId) return fitbitError(response, 401, 'invalid_client');
    if (fake.clientSecret !== undefined) {
      const expected = `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return fitbitError(response, 401, 'invalid_client');
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const valid =
        code &&
        !code.used &&
        code.method === 'S256' &&
        code.redirectUri === form.get('redirect_uri') &&
        sha256(verifier) === code.challenge;
      if (code) code.used = true;
      if (!valid) return fitbitError(response, 400, 'invalid_grant');
      return send(response, 200, tokens());
    }
    if (grant === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      const grant = refresh.get(token);
      if (grant === undefined) return fitbitError(response, 400, 'invalid_grant');
      refresh.delete(token);
      return send(response, 200, tokens(grant));
    }
    return fitbitError(response, 400, 'unsupported_grant_type');
  }

  function webApi(request: IncomingMessage, url: URL, response: ServerResponse) {
    if (fake.down) return fitbitError(response, 503, 'system');
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const held = access.get(token);
    if (!held) return fitbitError(response, 401, 'invalid_token');
    if (held.expiresAt <= Date.now()) return fitbitError(response, 401, 'expired_token');
    const path = url.pathname;
    if (path === '/1/user/-/activities/steps/date/today/30d.json')
      return send(response, 200, {
        'activities-steps': fake.days.map((day) => ({ dateTime: day.date, value: String(day.steps) })),
      });
    if (path === '/1/user/-/activities/heart/date/today/30d.json')
      return send(response, 200, {
        'activities-heart': fake.days.map((day) => ({
          dateTime: day.date,
          value: {
            customHeartRateZones: [],
            heartRateZones: [],
            ...(day.restingHeartRate === null ? {} : { restingHeartRate: day.restingHeartRate }),
          },
        })),
      });
    const sleep = /^\/1\.2\/user\/-\/sleep\/date\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\.json$/.exec(path);
    if (sleep) {
      const [, start = '', end = ''] = sleep;
      const inRange = fake.days.filter((day) => day.date >= start && day.date <= end);
      return send(response, 200, {
        sleep: inRange.flatMap((day) =>
          day.sleep.map((minutes, index) => ({
            dateOfSleep: day.date,
            minutesAsleep: minutes,
            isMainSleep: index === 0,
            logId: Math.floor(Math.random() * 1e9),
          })),
        ),
        summary: {},
      });
    }
    return fitbitError(response, 404, 'not_found');
  }

  /** The form of a POST, to `then`; anything but a form is Fitbit's 400 invalid_request. */
  function readForm(request: IncomingMessage, then: (form: URLSearchParams) => void) {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => then(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.requests.push({ method: request.method ?? '', path: url.pathname });
    if (request.method === 'GET' && url.pathname === '/oauth2/authorize') {
      // The patient approves at once; Fitbit sends the browser back to the app's callback page.
      const { code, state } = issueCode(url);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', state);
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/oauth2/revoke') {
      readForm(request, (form) => {
        fake.revoked.push(form.get('token') ?? '');
        if (fake.down) return fitbitError(response, 503, 'system');
        // RFC 7009: an unknown token is no error. Revoking either token of a grant ends both.
        const token = form.get('token') ?? '';
        const grant = refresh.get(token) ?? access.get(token)?.grant;
        for (const [held, of] of refresh) if (of === grant) refresh.delete(held);
        for (const [held, of] of access) if (of.grant === grant) access.delete(held);
        send(response, 200, {});
      });
      return;
    }
    if (request.method === 'POST' && url.pathname === '/oauth2/token') {
      readForm(request, (form) => tokenEndpoint(request, form, response));
      return;
    }
    if (request.method === 'GET') return webApi(request, url, response);
    fitbitError(response, 405, 'method_not_allowed');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url: base,
    authorizeUrl: `${base}/oauth2/authorize`,
    tokenUrl: `${base}/oauth2/token`,
    approve: (authorizeUrl: string) => issueCode(new URL(authorizeUrl)),
    expireAccessTokens: () => {
      for (const held of access.values()) held.expiresAt = 0;
    },
    revokeRefreshTokens: () => refresh.clear(),
    reset: () => {
      codes.clear();
      access.clear();
      refresh.clear();
      fake.requests.length = 0;
      fake.tokenRequests.length = 0;
      fake.revoked.length = 0;
      fake.down = false;
      fake.accessTtlSeconds = 28_800;
      fake.days = sampleDays();
    },
    liveTokens: () => ({
      access: [...access].filter(([, held]) => held.expiresAt > Date.now()).map(([token]) => token),
      refresh: [...refresh.keys()],
    }),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The FITBIT_* settings that point a Kincare server at this fake. */
export function fitbitEnv(fake: FakeFitbit): Record<string, string> {
  return {
    FITBIT_CLIENT_ID: fake.clientId,
    ...(fake.clientSecret ? { FITBIT_CLIENT_SECRET: fake.clientSecret } : {}),
    FITBIT_AUTHORIZE_URL: fake.authorizeUrl,
    FITBIT_TOKEN_URL: fake.tokenUrl,
    FITBIT_API_URL: fake.url,
  };
}
