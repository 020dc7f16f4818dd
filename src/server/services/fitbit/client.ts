import { z } from 'zod';
import type { FitbitConfig } from '../../config-fitbit';

// Fitbit's OAuth token endpoint and Web API, asked by the server. Every failure becomes a FitbitError
// that says only what kind it was: no token, code or answer text ever goes into an error (or the log).

export type FitbitFailureKind =
  /** 401 expired_token: the access token is too old; refresh it and ask again. */
  | 'expired-token'
  /** 400/401 invalid_grant (or invalid_token on the API): the code or refresh token is refused for good. */
  | 'invalid-grant'
  | 'unreachable'
  | 'timeout'
  /** Any other answer than the one asked for (429, 5xx, a 4xx of ours). */
  | 'refused'
  | 'broken-answer';

export class FitbitError extends Error {
  constructor(readonly kind: FitbitFailureKind) {
    super(`Fitbit failed: ${kind}`);
  }
}

export const FITBIT_TIMEOUT_MS = 10_000;

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().positive(),
  user_id: z.string().min(1),
});
export type FitbitTokens = z.infer<typeof tokenAnswerSchema>;

const errorAnswerSchema = z.object({
  errors: z.array(z.object({ errorType: z.string() })).min(1),
});

/** Fitbit's errorType of a failed answer ('expired_token', 'invalid_grant', ...), or null. */
function errorTypeOf(body: unknown): string | null {
  const parsed = errorAnswerSchema.safeParse(body);
  return parsed.success ? (parsed.data.errors[0]?.errorType ?? null) : null;
}

async function send(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(FITBIT_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new FitbitError(timedOut ? 'timeout' : 'unreachable');
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new FitbitError('timeout');
    if (response.ok) throw new FitbitError('broken-answer');
  }
  return { status: response.status, body };
}

/** A form POST to Fitbit's OAuth endpoints, as this app (with its secret when it is a confidential one). */
function postForm(config: FitbitConfig, url: string, form: Record<string, string>) {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  // A confidential ("Server") app proves itself with its secret; a public PKCE app has none to send.
  if (config.clientSecret) {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
  }
  return send(url, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ client_id: config.clientId, ...form }).toString(),
  });
}

async function askForTokens(config: FitbitConfig, form: Record<string, string>): Promise<FitbitTokens> {
  const { status, body } = await postForm(config, config.tokenUrl, form);
  if (status === 400 || status === 401) {
    const type = errorTypeOf(body);
    throw new FitbitError(
      type === 'invalid_grant' || type === 'invalid_request' ? 'invalid-grant' : 'refused',
    );
  }
  if (status !== 200) throw new FitbitError('refused');
  const parsed = tokenAnswerSchema.safeParse(body);
  if (!parsed.success) throw new FitbitError('broken-answer');
  return parsed.data;
}

/** The authorization code grant with the PKCE verifier. */
export function exchangeCode(
  config: FitbitConfig,
  code: string,
  codeVerifier: string,
): Promise<FitbitTokens> {
  return askForTokens(config, {
    grant_type: 'authorization_code',
    code,
    code_verifier: codeVerifier,
    redirect_uri: config.redirectUri,
  });
}

/** A new access token; Fitbit rotates the refresh token too (the old one stops working). */
export function refreshTokens(config: FitbitConfig, refreshToken: string): Promise<FitbitTokens> {
  return askForTokens(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** GET of a Web API path ('/1/user/-/...') with the access token. */
export async function getResource(config: FitbitConfig, path: string, accessToken: string): Promise<unknown> {
  const { status, body } = await send(`${config.apiUrl}${path}`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  if (status === 401) {
    const type = errorTypeOf(body);
    throw new FitbitError(type === 'expired_token' ? 'expired-token' : 'invalid-grant');
  }
  if (status !== 200) throw new FitbitError('refused');
  return body;
}

/**
 * Tells Fitbit to end the app's access (RFC 7009): revoking the refresh token ends the access token too.
 * Fitbit's revoke endpoint sits beside its token endpoint (.../oauth2/token -> .../oauth2/revoke).
 */
export async function revokeToken(config: FitbitConfig, token: string): Promise<void> {
  const { status } = await postForm(config, new URL('revoke', config.tokenUrl).toString(), { token });
  if (status !== 200) throw new FitbitError('refused');
}
