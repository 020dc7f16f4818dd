import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config';
import type { Database } from './db/client';
import { errorsPlugin } from './plugins/errors';
import { bodyDepthPlugin } from './plugins/body-depth';
import { headersPlugin, isApiPath } from './plugins/headers';
import { loggerOptions } from './plugins/logging';
import { registerRateLimits } from './plugins/rate-limits';
import { docsPlugin } from './plugins/docs';
import { staticAppPlugin } from './plugins/static-app';
import { authPlugin } from './plugins/auth';
import { billingPlugin } from './plugins/billing';
import { mailPlugin } from './plugins/mail';
import { storagePlugin } from './plugins/storage';
import { healthRoutes } from './routes/health';
import { authRoutes } from './routes/auth';
import { appointmentRoutes } from './routes/appointments';
import { prescriptionRoutes } from './routes/prescriptions';
import { labReportRoutes } from './routes/lab-reports';
import { decoratePush, pushRoutes } from './routes/push';
import { doctorRoutes, pharmacyRoutes } from './routes/directory';
import { syncRoutes } from './routes/sync';
import { requestRoutes } from './routes/requests';
import { uploadRoutes } from './routes/uploads';
import { billingRoutes } from './routes/billing';
import { checkInRoutes } from './routes/check-in';
import { weatherRoutes } from './routes/weather';
import { recordImportRoutes } from './routes/record-import';
import { patientSummaryRoutes } from './routes/patient-summary';
import { shareLinkManifestRoutes, shareLinkRoutes } from './routes/share-links';
import { medicalHistoryRoutes } from './routes/medical-history';
import { fitbitRoutes } from './routes/fitbit';
import { scheduleHousekeeping } from './services/housekeeping';
import { createOcrService, type OcrService } from './ocr/ocr-service';
import { createHeicConverter, type HeicConverter } from './services/heic';
import { createRecordReader, type RecordReader } from './services/record-import/reader';
import { resourceOf, SYNCED_RESOURCES } from '../domain/resources/list';
import { SERVER_RESOURCES } from './resources';
import { mutationRoutes } from './routes/mutation-routes';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
    /** The one OCR service (label photos now, lab reports later): workers start on first use. */
    ocr: OcrService;
    heic: HeicConverter;
    recordReader: RecordReader;
  }
}

export type AppOptions = {
  config: Config;
  db: Database;
  distDir?: string;
  /** Where the JSON log lines go (tests capture them here); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Run the medicine reminder sweep on this server (main.ts does; tests run it themselves). */
  startReminders?: boolean;
};

const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Builds the server. Plugins load in a fixed order: external (security headers, limits, parsers),
 * then ours (errors, docs, mail, storage, auth), then the routes under /api, then the PWA at the root.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: false,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('ocr', createOcrService(config.ocr));
  app.decorate('heic', createHeicConverter(config.imageConversion));
  app.decorate('recordReader', createRecordReader({ memoryMb: config.imageConversion.memoryMb }));
  // Their sandbox processes are stopped with the server, whatever they were reading.
  app.addHook('onClose', async () => {
    await Promise.all([app.ocr.close(), app.heic.close(), app.recordReader.close()]);
  });

  // helmet's headers are the same for every answer; @fastify/helmet works them out again (building
  // helmet and parsing the CSP) on every request, so they are worked out once here and set from a table.
  const securityHeaders = await helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(securityHeaders);
  });
  await app.register(headersPlugin);
  await registerRateLimits(app, config);
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 30, fieldSize: 100_000 },
    throwFileSizeLimit: true,
  });
  await app.register(errorsPlugin);
  await app.register(bodyDepthPlugin);
  await app.register(docsPlugin);
  await app.register(mailPlugin);
  await app.register(storagePlugin);
  await app.register(authPlugin);
  await app.register(billingPlugin);

  await app.register(
    async (api) => {
      // JSON answers of the API, compressed when they are worth it (a page of a pull, a list of records).
      // Registered here, not at the root: the built PWA is already compressed on disk (static-app.ts)
      // and stored files (/api/files, served from the root) are images and PDFs that do not shrink.
      // Request bodies are never inflated: a compressed upload could otherwise unpack far past its size.
      await api.register(compress, {
        threshold: 1024,
        encodings: ['br', 'gzip'],
        globalDecompression: false,
        brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
      });
      api.setNotFoundHandler((request, reply) => reply.status(404).send(API_NOT_FOUND));
      await api.register(healthRoutes);
      // Public calls and signed-in ones side by side: each of their signed-in routes authenticates on
      // its own, in onRequest (see their files).
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(billingRoutes, { prefix: '/stripe' });
      // A share link's manifest address: public, as whoever holds the link opens it without an account.
      await api.register(shareLinkManifestRoutes, { prefix: '/shl' });
      await api.register(async (signedIn) => {
        // Every route in here needs a signed-in caller. Authentication is the first thing that happens
        // (onRequest, before the body is parsed and validated), so a caller without a live session gets
        // 401 whatever the input, and limits counted per person (preHandler) know who is calling.
        signedIn.addHook('onRequest', app.authenticate);
        await signedIn.register(appointmentRoutes, { prefix: '/appointments' });
        await signedIn.register(doctorRoutes, { prefix: '/doctors' });
        await signedIn.register(pharmacyRoutes, { prefix: '/pharmacies' });
        await signedIn.register(prescriptionRoutes, { prefix: '/prescriptions' });
        await signedIn.register(labReportRoutes, { prefix: '/lab-reports' });
        await signedIn.register(pushRoutes, { prefix: '/push' });
        await signedIn.register(syncRoutes, { prefix: '/sync' });
        await signedIn.register(requestRoutes, { prefix: '/request' });
        await signedIn.register(uploadRoutes, { prefix: '/upload-image' });
        await signedIn.register(checkInRoutes, { prefix: '/interactions' });
        await signedIn.register(weatherRoutes, { prefix: '/weather' });
        await signedIn.register(medicalHistoryRoutes, { prefix: '/medical-history' });
        await signedIn.register(fitbitRoutes, { prefix: '/fitbit' });
        await signedIn.register(recordImportRoutes, { prefix: '/import' });
        await signedIn.register(patientSummaryRoutes, { prefix: '/export' });
        await signedIn.register(shareLinkRoutes, { prefix: '/share-links' });
        // The synced resources' mutations by REST, made from their declarations, and the reads of those
        // served from their declaration alone (src/server/resources.ts).
        for (const key of SYNCED_RESOURCES) {
          const resource = SERVER_RESOURCES[key];
          if (resource.mutations.routes?.length)
            await signedIn.register(mutationRoutes(resource.mutations.routes));
          if (resource.reads)
            await signedIn.register(resource.reads, { prefix: resourceOf(key).path.replace(/^\/api/, '') });
        }
      });
    },
    { prefix: '/api' },
  );
  scheduleHousekeeping(app);
  decoratePush(app);
  if (options.startReminders && config.reminders.intervalSeconds > 0)
    app.addHook('onReady', async () => app.reminders.start(config.reminders.intervalSeconds * 1000));
  await app.register(staticAppPlugin, { distDir: options.distDir ?? defaultDistDir, isApiPath });
  return app;
}

const API_NOT_FOUND = { message: 'Not found' };

const HELMET_OPTIONS: FastifyHelmetOptions = {
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
  // Sent by the headers plugin, and only over HTTPS.
  strictTransportSecurity: false,
};

/** The headers @fastify/helmet sets with these options, read once from an answer of a throwaway server. */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const answer = await probe.inject('/');
    const bare = Fastify();
    bare.get('/', async () => '');
    const without = await bare.inject('/');
    await bare.close();
    // Only what helmet added: not the date, length and type every answer has.
    return Object.fromEntries(
      Object.entries(answer.headers).flatMap(([name, value]) =>
        name in without.headers || value === undefined ? [] : [[name, String(value)]],
      ),
    );
  } finally {
    await probe.close();
  }
}

/**
 * Fastify's trustProxy from TRUST_PROXY. Fastify trusts no proxy at all for a bare hop count (a client
 * that reaches the server directly could send as many forged hops as it likes); with TRUST_PROXY=<n> the
 * operator says the server is reached only through n proxies, so the n nearest hops are trusted.
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
