import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import { eq } from 'drizzle-orm';
import type { Role } from '../../domain/roles';
import { caregivers, patients, users } from '../db/schema';
import { HttpError } from './errors';

// Signed, expiring bearer tokens (HS256). A token carries the user id and the user's token version;
// every authenticated request re-reads the user, so a password change (which bumps the version) or a
// deleted account stops older tokens at once.

export type AuthUser = {
  userId: string;
  role: Role;
  name: string;
  email: string;
  patientId: string | null;
  caregiverId: string | null;
};

type TokenPayload = { sub: string; tv: number };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload;
    user: TokenPayload;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid, current token; sets request.auth. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    issueToken: (user: { id: string; tokenVersion: number }) => string;
  }
  interface FastifyRequest {
    auth: AuthUser;
  }
}

const UNAUTHORIZED = 'Your session has ended. Please sign in again.';

export const authPlugin = fp(async (app: FastifyInstance) => {
  await app.register(jwt, {
    secret: app.config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: app.config.tokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('auth', null as unknown as AuthUser);
  app.decorate('issueToken', (user: { id: string; tokenVersion: number }) =>
    app.jwt.sign({ sub: user.id, tv: user.tokenVersion }),
  );
  app.decorate('authenticate', async (request: FastifyRequest) => {
    let payload: TokenPayload;
    try {
      payload = await request.jwtVerify<TokenPayload>();
    } catch {
      throw new HttpError(401, UNAUTHORIZED);
    }
    if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number')
      throw new HttpError(401, UNAUTHORIZED);
    const [row] = await app.db
      .select({
        id: users.id,
        role: users.role,
        name: users.name,
        email: users.email,
        tokenVersion: users.tokenVersion,
        patientId: patients.id,
        caregiverId: caregivers.id,
      })
      .from(users)
      .leftJoin(patients, eq(patients.userId, users.id))
      .leftJoin(caregivers, eq(caregivers.userId, users.id))
      .where(eq(users.id, payload.sub))
      .limit(1);
    if (!row || row.tokenVersion !== payload.tv) throw new HttpError(401, UNAUTHORIZED);
    request.auth = {
      userId: row.id,
      role: row.role,
      name: row.name,
      email: row.email,
      patientId: row.patientId,
      caregiverId: row.caregiverId,
    };
  });
});
