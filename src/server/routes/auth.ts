import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountRoutes } from './auth-account';
import { passwordRoutes } from './auth-password';
import { profileRoutes } from './auth-profile';
import { updateProfileRoutes } from './auth-update-profile';
import { userRoutes } from './auth-users';

// The /auth calls of SPEC section 7, mounted at /api/auth. userRoutes holds the parametric GET /:id,
// so it goes last: its static siblings (/profile, /user-info) are all registered before it.
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(accountRoutes);
  await app.register(passwordRoutes);
  await app.register(profileRoutes);
  await app.register(updateProfileRoutes);
  await app.register(userRoutes);
};
