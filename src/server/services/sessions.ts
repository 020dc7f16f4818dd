import { and, desc, eq, gt, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import { sessions } from '../db/schema';
import type { Queryable } from './transaction';

// Sign-ins, kept in the sessions table: a token names its session, and the auth plugin refuses a token
// whose session has ended or expired. Ending a session (logout, "sign out of all devices", a password
// change or reset) therefore stops its token at once, on every server, however long the token had left.

/** Browsers send user agents of a few hundred characters; anything longer is noise or an attack. */
export const SESSION_USER_AGENT_MAX = 256;
/** The longest address text kept (an IPv6 address with a zone is well under this). */
export const SESSION_ADDRESS_MAX = 64;
/** last_seen_at is written at most this often per session, not on every request. */
export const LAST_SEEN_INTERVAL_MS = 60 * 1000;
/** The list a person sees: their newest live sign-ins. */
export const SESSION_LIST_MAX = 20;
/** Ended and expired sessions are kept this long (the person's recent sign-ins), then purged. */
export const SESSION_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export type NewSession = { userId: string; userAgent: string; address: string; ttlSeconds: number };
export type LiveSession = {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string;
  address: string;
};

/** Control characters (and a NUL, which Postgres refuses) have no place in a list shown to the person. */
function printable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').slice(0, max);
}

export async function createSession(
  db: Queryable,
  session: NewSession,
  now = new Date(),
): Promise<{ id: string; expiresAt: Date }> {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: session.userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + session.ttlSeconds * 1000),
      userAgent: printable(session.userAgent, SESSION_USER_AGENT_MAX),
      address: printable(session.address, SESSION_ADDRESS_MAX),
    })
    .returning({ id: sessions.id, expiresAt: sessions.expiresAt });
  if (!row) throw new Error('the session was not created');
  return row;
}

const live = (now: Date) => and(isNull(sessions.endedAt), gt(sessions.expiresAt, now));

/** Ends one live session of this person; false when it is not theirs, unknown, or already over. */
export async function endSession(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
  const now = new Date();
  const ended = await db
    .update(sessions)
    .set({ endedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), live(now)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/** Ends every live session of this person, but `except` when given; answers how many ended. */
export async function endAllSessions(
  db: Queryable,
  userId: string,
  options: { except?: string } = {},
): Promise<number> {
  const now = new Date();
  const ended = await db
    .update(sessions)
    .set({ endedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        live(now),
        options.except === undefined ? undefined : ne(sessions.id, options.except),
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** The person's live sessions, newest first, at most SESSION_LIST_MAX. */
export async function listLiveSessions(db: Queryable, userId: string): Promise<LiveSession[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      address: sessions.address,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), live(new Date())))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(SESSION_LIST_MAX);
}

/**
 * Records that the session was used now, unless that was recorded less than a minute ago. The condition
 * is in the statement, so servers that race on one session write once between them.
 */
export async function touchSession(db: Queryable, sessionId: string, now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        lt(sessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_INTERVAL_MS)),
      ),
    );
}

/**
 * Deletes sessions that ended or expired more than SESSION_RETENTION_DAYS before `now` (for the daily
 * housekeeping). Their tokens expired long before, so nothing can still present them.
 */
export async function purgeOldSessions(db: Queryable, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SESSION_RETENTION_DAYS * DAY_MS);
  const purged = await db
    .delete(sessions)
    .where(or(and(isNotNull(sessions.endedAt), lt(sessions.endedAt, before)), lt(sessions.expiresAt, before)))
    .returning({ id: sessions.id });
  return purged.length;
}
