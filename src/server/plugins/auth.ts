import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Role } from '../../domain/roles';
import { caregivers, patients, sessions, users } from '../db/schema';
import { createSession, LAST_SEEN_INTERVAL_MS, touchSession } from '../services/sessions';
import { HttpError } from './errors';

// Signed, expiring bearer tokens (HS256) that name a session kept on the server (services/sessions.ts).
// Every authenticated request reads the user and the session in one query, so logout, "sign out of all
// devices", a password change or reset, or a deleted account stop a token at once, on every server.
// (users.token_version, which did this per account before sessions existed, is no longer read.)

export type AuthUser = {
  userId: string;
  /** The caller's session: logout ends it, and the list of sign-ins marks it as the current one. */
  sessionId: string;
  role: Role;
  name: string;
  email: string;
  patientId: string | null;
  caregiverId: string | null;
};

type TokenPayload = { sub: string; sid: string };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload;
    user: TokenPayload;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * 401 unless the request carries a token of a live session; sets request.auth. An onRequest hook, so
     * that a caller who is not signed in learns nothing from validation (app.ts runs it for every route
     * that needs a sign-in). It reads the session once per request: a later call finds request.auth set.
     */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Starts a session for this sign-in (the request's browser and address) and answers its token. */
    openSession: (request: FastifyRequest, userId: string) => Promise<{ token: string; sessionId: string }>;
    /**
     * A token for a new session of this user, answered at once while the session row is written. For test
     * fixtures that need many people quickly (tests/fixtures/people.ts); the routes use openSession.
     * The token works once its session exists: authenticate waits for the write of a session this server
     * started, and a session whose write failed never existed.
     */
    issueToken: (user: { id: string; tokenVersion?: number }) => string;
  }
  interface FastifyRequest {
    auth: AuthUser;
  }
}

const UNAUTHORIZED = 'Your session has ended. Please sign in again.';

/** `Authorization: Bearer <token>`, as @fastify/jwt reads it (the scheme in any case); '' when absent. */
function bearerToken(request: FastifyRequest): string {
  const parts = request.headers.authorization?.split(' ');
  return parts?.length === 2 && /^Bearer$/i.test(parts[0] ?? '') ? (parts[1] ?? '') : '';
}

// What this server signs. A token that verifies but says anything else (no exp, a sub or sid that is not
// a UUID, claims of other types, an older token with no session) is refused like a bad signature:
// a 401, never a 500 from a query that cannot take the value.
const tokenClaimsSchema = z.object({
  sub: z.uuid(),
  sid: z.uuid(),
  exp: z.number().int().positive(),
  iat: z.number().int().optional(),
});

export const authPlugin = fp(async (app: FastifyInstance) => {
  await app.register(jwt, {
    secret: app.config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: app.config.tokenTtlSeconds },
    // A device sends the same token on every call until it expires: fast-jwt keeps the outcome of a
    // signature check (not of the session check, which runs every time) until the token's exp at most.
    verify: { algorithms: ['HS256'], cache: true },
  });
  app.decorateRequest('auth', null as unknown as AuthUser);

  const signToken = (userId: string, sessionId: string) => app.jwt.sign({ sub: userId, sid: sessionId });

  app.decorate('openSession', async (request: FastifyRequest, userId: string) => {
    const session = await createSession(app.db, {
      userId,
      userAgent: request.headers['user-agent'] ?? '',
      address: request.ip,
      ttlSeconds: app.config.tokenTtlSeconds,
    });
    return { token: signToken(userId, session.id), sessionId: session.id };
  });

  // Session writes that issueToken started and authenticate must wait for (only ever in tests).
  const pendingSessions = new Map<string, Promise<unknown>>();
  app.decorate('issueToken', (user: { id: string }) => {
    const sessionId = randomUUID();
    const written = app.db
      .insert(sessions)
      .values({
        id: sessionId,
        userId: user.id,
        expiresAt: new Date(Date.now() + app.config.tokenTtlSeconds * 1000),
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'could not store the session of a new token'))
      .finally(() => pendingSessions.delete(sessionId));
    pendingSessions.set(sessionId, written);
    return signToken(user.id, sessionId);
  });

  // Every authenticated request runs this statement: built once and prepared (named), so neither
  // drizzle nor Postgres works it out again on each request.
  const liveSession = app.db
    .select({
      id: users.id,
      role: users.role,
      name: users.name,
      email: users.email,
      patientId: patients.id,
      caregiverId: caregivers.id,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(patients, eq(patients.userId, users.id))
    .leftJoin(caregivers, eq(caregivers.userId, users.id))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(sessions.userId, sql.placeholder('sub')),
        isNull(sessions.endedAt),
        // drizzle does not map a placeholder through the column: the time goes as ISO text
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
      ),
    )
    .limit(1)
    .prepare('auth_live_session');

  app.decorate('authenticate', async (request: FastifyRequest) => {
    if (request.auth) return;
    let claims: z.infer<typeof tokenClaimsSchema>;
    try {
      claims = tokenClaimsSchema.parse(app.jwt.verify(bearerToken(request)));
    } catch {
      throw new HttpError(401, UNAUTHORIZED);
    }
    await pendingSessions.get(claims.sid);
    const now = new Date();
    const [row] = await liveSession.execute({ sid: claims.sid, sub: claims.sub, now: now.toISOString() });
    if (!row) throw new HttpError(401, UNAUTHORIZED);
    if (now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
      // Bookkeeping for the list of sign-ins: failing it must not fail the person's request.
      await touchSession(app.db, claims.sid, now).catch((error: unknown) =>
        request.log.warn({ err: error }, 'could not record when the session was last used'),
      );
    }
    request.auth = {
      userId: row.id,
      sessionId: claims.sid,
      role: row.role,
      name: row.name,
      email: row.email,
      patientId: row.patientId,
      caregiverId: row.caregiverId,
    };
  });
});
