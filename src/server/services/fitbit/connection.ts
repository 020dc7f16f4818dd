import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  FITBIT_DAYS,
  FITBIT_MESSAGES,
  FITBIT_REFRESH_MS,
  notConnectedFitbit,
  type FitbitData,
  type FitbitDay,
} from '../../../domain/fitbit';
import type { FitbitConfig } from '../../config-fitbit';
import type { Database } from '../../db/client';
import { fitbitAuthorizations, fitbitConnections, fitbitDays } from '../../db/schema';
import { HttpError } from '../../plugins/errors';
import { sha256 } from '../signing';
import { exchangeCode, FitbitError, refreshTokens, revokeToken, type FitbitTokens } from './client';
import { readFitbitDays, windowEnding } from './days';
import { openToken, pkcePair, sealToken } from './token-box';

// A patient's Fitbit connection: connecting (PKCE, RFC 7636 with S256), the tokens kept encrypted and
// refreshed, the 30 days kept in the database and read from Fitbit again at most every 15 minutes, and
// disconnecting. Fitbit being down never fails a read: the days kept are answered, and the failure logged.

/** How long a started connection waits for Fitbit to send the patient back. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;
export const FITBIT_SCOPES = 'activity heartrate sleep';

/** Fitbit's sign-in page for this patient; the verifier waits (encrypted) for the callback. */
export async function startAuthorization(
  db: Database,
  config: FitbitConfig,
  patientId: string,
): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const state = pkcePair().verifier;
  const row = {
    patientId,
    stateHash: sha256(state),
    codeVerifierEnc: sealToken(config.tokenKey, verifier, patientId),
    expiresAt: new Date(Date.now() + AUTHORIZATION_TTL_MS),
  };
  await db
    .insert(fitbitAuthorizations)
    .values(row)
    .onConflictDoUpdate({ target: fitbitAuthorizations.patientId, set: row });
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: FITBIT_SCOPES,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  return url.toString();
}

function sealedTokens(config: FitbitConfig, patientId: string, tokens: FitbitTokens) {
  return {
    fitbitUserId: tokens.user_id,
    accessTokenEnc: sealToken(config.tokenKey, tokens.access_token, patientId),
    refreshTokenEnc: sealToken(config.tokenKey, tokens.refresh_token, patientId),
    accessExpiresAt: new Date(Date.now() + tokens.expires_in * 1000),
    status: 'active' as const,
    updatedAt: new Date(),
  };
}

/**
 * The callback: the code is exchanged with the verifier kept for this patient. The waiting row is taken
 * (deleted) in one statement first, so a code sent twice, even at once, is exchanged once at most; the
 * second gets the 400 of a sign-in already used. A state sent must be the one Fitbit was given.
 */
export async function finishAuthorization(
  db: Database,
  config: FitbitConfig,
  patientId: string,
  code: string,
  state: string | undefined,
): Promise<void> {
  const [pending] = await db
    .delete(fitbitAuthorizations)
    .where(and(eq(fitbitAuthorizations.patientId, patientId), gt(fitbitAuthorizations.expiresAt, new Date())))
    .returning();
  if (!pending) throw new HttpError(400, FITBIT_MESSAGES.noPendingConnection);
  if (state !== undefined && sha256(state) !== pending.stateHash)
    throw new HttpError(400, FITBIT_MESSAGES.noPendingConnection);
  const verifier = openToken(config.tokenKey, pending.codeVerifierEnc, patientId);
  if (verifier === null) throw new HttpError(400, FITBIT_MESSAGES.noPendingConnection);
  let tokens: FitbitTokens;
  try {
    tokens = await exchangeCode(config, code, verifier);
  } catch (error) {
    if (!(error instanceof FitbitError)) throw error;
    if (error.kind === 'invalid-grant') throw new HttpError(400, FITBIT_MESSAGES.codeRefused);
    throw new HttpError(error.kind === 'broken-answer' ? 502 : 503, failureMessage(error));
  }
  const values = sealedTokens(config, patientId, tokens);
  // Another Fitbit account than before: the days kept were someone else's wrist.
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ fitbitUserId: fitbitConnections.fitbitUserId })
      .from(fitbitConnections)
      .where(eq(fitbitConnections.patientId, patientId));
    if (before && before.fitbitUserId !== tokens.user_id)
      await tx.delete(fitbitDays).where(eq(fitbitDays.patientId, patientId));
    const fresh = { ...values, fetchedAt: null, checkedAt: null };
    await tx
      .insert(fitbitConnections)
      .values({ patientId, ...fresh })
      .onConflictDoUpdate({ target: fitbitConnections.patientId, set: fresh });
  });
}

const failureMessage = (error: FitbitError) =>
  error.kind === 'broken-answer' ? FITBIT_MESSAGES.broken : FITBIT_MESSAGES.unavailable;

/** Forgets the patient's tokens, days and any connection under way. */
export async function disconnect(
  db: Database,
  config: FitbitConfig | undefined,
  patientId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const connection = await connectionOf(db, patientId);
  const refreshToken =
    config && connection?.status === 'active'
      ? openToken(config.tokenKey, connection.refreshTokenEnc, patientId)
      : null;
  // Fitbit is told first, so the access ends there too; if it cannot be told, Kincare forgets anyway
  // (the patient can remove the app in their Fitbit account) and the failure is logged.
  if (config && refreshToken !== null)
    await revokeToken(config, refreshToken).catch((error: unknown) => {
      const kind = error instanceof FitbitError ? error.kind : 'unknown';
      log.warn({ fitbitFailure: kind }, 'Fitbit could not be told of the disconnection');
    });
  await db.transaction(async (tx) => {
    await tx.delete(fitbitAuthorizations).where(eq(fitbitAuthorizations.patientId, patientId));
    await tx.delete(fitbitConnections).where(eq(fitbitConnections.patientId, patientId));
    await tx.delete(fitbitDays).where(eq(fitbitDays.patientId, patientId));
  });
}

type Connection = typeof fitbitConnections.$inferSelect;

/** The patient's days kept, the FITBIT_DAYS ending on the newest (oldest first; null where none). */
async function keptDays(db: Database, patientId: string): Promise<FitbitDay[]> {
  const rows = await db
    .select()
    .from(fitbitDays)
    .where(eq(fitbitDays.patientId, patientId))
    .orderBy(desc(fitbitDays.day))
    .limit(FITBIT_DAYS);
  const newest = rows[0]?.day;
  if (!newest) return [];
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return windowEnding(newest).map((date) => {
    const row = byDay.get(date);
    return {
      date,
      steps: row?.steps ?? null,
      resting_heart_rate: row?.restingHeartRate ?? null,
      sleep_minutes: row?.sleepMinutes ?? null,
    };
  });
}

async function answerOf(db: Database, patientId: string, connection: Connection): Promise<FitbitData> {
  const ended = connection.status === 'ended';
  return {
    set_up: true,
    connected: !ended,
    reconnect: ended,
    days: await keptDays(db, patientId),
    fetched_at: connection.fetchedAt?.toISOString() ?? null,
  };
}

// One read of Fitbit per patient at a time on this server: Home opened on two devices at once must not
// refresh the same (rotating) refresh token twice.
const readsUnderWay = new Map<string, Promise<FitbitData>>();

/** GET /api/fitbit/data: the days kept, read from Fitbit again when they are older than 15 minutes. */
export function fitbitDataOf(
  db: Database,
  config: FitbitConfig,
  patientId: string,
  log: FastifyBaseLogger,
): Promise<FitbitData> {
  const underWay = readsUnderWay.get(patientId);
  if (underWay) return underWay;
  const read = readFitbitData(db, config, patientId, log).finally(() => readsUnderWay.delete(patientId));
  readsUnderWay.set(patientId, read);
  return read;
}

async function connectionOf(db: Database, patientId: string): Promise<Connection | undefined> {
  const [connection] = await db
    .select()
    .from(fitbitConnections)
    .where(eq(fitbitConnections.patientId, patientId));
  return connection;
}

async function readFitbitData(
  db: Database,
  config: FitbitConfig,
  patientId: string,
  log: FastifyBaseLogger,
): Promise<FitbitData> {
  const connection = await connectionOf(db, patientId);
  if (!connection) return notConnectedFitbit(true);
  const fresh = connection.checkedAt && Date.now() - connection.checkedAt.getTime() < FITBIT_REFRESH_MS;
  if (connection.status === 'ended' || fresh) return answerOf(db, patientId, connection);
  await db
    .update(fitbitConnections)
    .set({ checkedAt: new Date() })
    .where(eq(fitbitConnections.patientId, patientId));
  try {
    const days = await withAccessToken(db, config, connection, (token) => readFitbitDays(config, token));
    await keepDays(db, patientId, days);
  } catch (error) {
    if (!(error instanceof FitbitError)) throw error;
    if (error.kind === 'invalid-grant') {
      await db
        .update(fitbitConnections)
        .set({ status: 'ended', updatedAt: new Date() })
        .where(eq(fitbitConnections.patientId, patientId));
      log.info({ fitbitFailure: error.kind }, 'Fitbit ended the connection: the patient must connect again');
    } else {
      log.warn({ fitbitFailure: error.kind }, 'Fitbit could not be read: the days kept are answered');
    }
  }
  return answerOf(db, patientId, (await connectionOf(db, patientId)) ?? connection);
}

async function keepDays(db: Database, patientId: string, days: FitbitDay[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const day of days) {
      const values = {
        steps: day.steps,
        restingHeartRate: day.resting_heart_rate,
        sleepMinutes: day.sleep_minutes,
      };
      await tx
        .insert(fitbitDays)
        .values({ patientId, day: day.date, ...values })
        .onConflictDoUpdate({ target: [fitbitDays.patientId, fitbitDays.day], set: values });
    }
    await tx
      .update(fitbitConnections)
      .set({ fetchedAt: new Date() })
      .where(eq(fitbitConnections.patientId, patientId));
  });
}

/**
 * Runs `use` with the access token; when Fitbit says it expired (or no longer holds it), refreshes once,
 * keeps the new pair (Fitbit rotates the refresh token) and runs `use` again. A refused refresh is an
 * 'invalid-grant' FitbitError: the connection has ended.
 */
async function withAccessToken<T>(
  db: Database,
  config: FitbitConfig,
  connection: Connection,
  use: (accessToken: string) => Promise<T>,
): Promise<T> {
  const { patientId } = connection;
  const accessToken = openToken(config.tokenKey, connection.accessTokenEnc, patientId);
  // Unreadable (the key changed): refreshing would not help either.
  if (accessToken === null) throw new FitbitError('invalid-grant');
  const expired = connection.accessExpiresAt.getTime() <= Date.now();
  if (!expired) {
    try {
      return await use(accessToken);
    } catch (error) {
      if (
        !(error instanceof FitbitError) ||
        (error.kind !== 'expired-token' && error.kind !== 'invalid-grant')
      )
        throw error;
    }
  }
  return use(await refreshed(db, config, connection));
}

async function refreshed(db: Database, config: FitbitConfig, connection: Connection): Promise<string> {
  const { patientId } = connection;
  const refreshToken = openToken(config.tokenKey, connection.refreshTokenEnc, patientId);
  if (refreshToken === null) throw new FitbitError('invalid-grant');
  let tokens: FitbitTokens;
  try {
    tokens = await refreshTokens(config, refreshToken);
  } catch (error) {
    // Another server may have used this refresh token a moment ago: its new pair is then in the row.
    const now =
      error instanceof FitbitError && error.kind === 'invalid-grant' && (await connectionOf(db, patientId));
    const rotated = now && now.status === 'active' && now.refreshTokenEnc !== connection.refreshTokenEnc;
    const theirs = rotated ? openToken(config.tokenKey, now.accessTokenEnc, patientId) : null;
    if (theirs !== null) return theirs;
    throw error;
  }
  await db
    .update(fitbitConnections)
    .set(sealedTokens(config, patientId, tokens))
    .where(eq(fitbitConnections.patientId, patientId));
  return tokens.access_token;
}
