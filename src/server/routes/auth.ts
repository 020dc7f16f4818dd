import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadPasswordStrength } from '../../domain/password';
import { accountRoutes } from './auth-account';
import { inviteRoutes } from './auth-invite';
import { passwordRoutes } from './auth-password';
import { profileRoutes } from './auth-profile';
import { sessionRoutes } from './auth-sessions';
import { updateProfileRoutes } from './auth-update-profile';
import { userRoutes } from './auth-users';

// The /auth calls, mounted at /api/auth. userRoutes holds the parametric GET /:id,
// so it goes last: its static siblings (/profile, /user-info, /sessions) are all registered before it.
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // The password schemas judge strength only once the check is loaded: the server loads it before it
  // takes a request, so it never lets an easy password through.
  await loadPasswordStrength();
  // Public calls (change-password, the one signed-in call among them, authenticates in its own onRequest).
  await app.register(accountRoutes);
  await app.register(inviteRoutes);
  await app.register(passwordRoutes);
  await app.register(async (signedIn) => {
    // Every route in here needs a signed-in caller, authenticated before anything else (as in app.ts).
    signedIn.addHook('onRequest', app.authenticate);
    await signedIn.register(profileRoutes);
    await signedIn.register(updateProfileRoutes);
    await signedIn.register(sessionRoutes);
    await signedIn.register(userRoutes);
  });
};
