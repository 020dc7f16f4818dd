import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { errorsPlugin } from './plugins/errors';
import { docsPlugin } from './plugins/docs';
import { staticAppPlugin } from './plugins/static-app';
import { authPlugin } from './plugins/auth';
import { mailPlugin } from './plugins/mail';
import { storagePlugin } from './plugins/storage';
import { healthRoutes } from './routes/health';
import { authRoutes } from './routes/auth';
import { appointmentRoutes } from './routes/appointments';
import { syncRoutes } from './routes/sync';
import { uploadRoutes } from './routes/uploads';
import { scheduleHousekeeping } from './services/housekeeping';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
  }
}

export type AppOptions = { config: Config; db: Database; distDir?: string };

const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Builds the server. Plugins load in a fixed order: external (security headers, limits, parsers),
 * then ours (errors, docs, mail, storage, auth), then the routes under /api, then the PWA at the root.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: false,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"], // react-hot-toast injects its styles at run time
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 30, fieldSize: 100_000 },
    throwFileSizeLimit: true,
  });
  await app.register(errorsPlugin);
  await app.register(docsPlugin);
  await app.register(mailPlugin);
  await app.register(storagePlugin);
  await app.register(authPlugin);

  await app.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) => reply.status(404).send({ message: 'Not found' }));
      await api.register(healthRoutes);
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(appointmentRoutes, { prefix: '/appointments' });
      await api.register(syncRoutes, { prefix: '/sync' });
      await api.register(uploadRoutes, { prefix: '/upload-image' });
    },
    { prefix: '/api' },
  );
  scheduleHousekeeping(app);
  await app.register(staticAppPlugin, { distDir: options.distDir ?? defaultDistDir });
  return app;
}
