import type { FastifyInstance } from 'fastify';
import type { Profile } from '../../domain/auth';
import { HttpError } from '../plugins/errors';
import { loadProfile } from '../services/profile';

// What several /auth route files share.

/** OpenAPI: the route needs the bearer token. */
export const signedIn = { security: [{ bearer: [] }] };

/** The auth plugin's 401 text, for the rare case where the account vanishes after authentication. */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** The caller's profile; authenticate has just read the user, so a miss means it was deleted meanwhile. */
export async function requireProfile(app: FastifyInstance, userId: string): Promise<Profile> {
  const profile = await loadProfile(app.db, app.storage, userId);
  if (!profile) throw new HttpError(401, SESSION_ENDED);
  return profile;
}
