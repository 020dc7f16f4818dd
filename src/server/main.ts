import { ConfigError, loadConfig } from './config';
import { openDatabase, pgliteDirFor } from './db/client';
import { buildApp } from './app';
import { loadSampleDirectoryIfEmpty } from './directory/sample';

const SHUTDOWN_GRACE_MS = 10_000;

// Starts Kincare: checks the configuration, opens the database (applying migrations), listens, and on
// SIGTERM/SIGINT stops accepting, lets in-flight requests finish, then closes the database.

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteDirFor(config.dataDir),
  });
  let app;
  try {
    app = await buildApp({ config, db: database.db, startReminders: true });
    await loadSampleDirectoryIfEmpty(database.db, app.log);
  } catch (error) {
    await database.close();
    throw error;
  }
  const server = app;
  let stopping = false;
  // Answers finished while stopping close their connection: an idle keep-alive connection would
  // otherwise hold the process (and the database) open until its 72 s timeout.
  server.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  const stop = async (signal: string) => {
    if (stopping) {
      server.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    server.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => server.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    deadline.unref();
    try {
      await server.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      server.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    await server.listen({ port: config.port, host: config.host });
  } catch (error) {
    await server.close().catch(() => undefined);
    await database.close();
    throw error;
  }
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // With PORT=0 the real port is known only now; links in e-mails must point at it.
  if (!process.env.PUBLIC_URL) config.publicUrl = `http://localhost:${port}`;
  server.log.info({ database: database.driver, dataDir: config.dataDir }, 'database ready');
  // Which store counts the rate limits and whom the server believes about client addresses: the two
  // settings that decide whether limits hold behind a load balancer. REDIS_URL itself may hold a password.
  server.log.info(
    { rateLimits: config.redisUrl ? 'redis' : 'memory', trustProxy: config.trustProxy },
    'limits configured',
  );
  console.log(`Kincare is running at http://localhost:${port} (database: ${database.driver})`);
}

main().catch((error: unknown) => {
  // Errors of the environment (a port in use, a folder that is a file) are told plainly; others are bugs.
  const code = error instanceof Error && 'code' in error ? String(error.code) : null;
  if (code) console.error(`Kincare failed to start: ${(error as Error).message}`);
  else console.error('Kincare failed to start:', error);
  process.exit(1);
});
