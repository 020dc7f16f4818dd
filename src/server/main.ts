import { ConfigError, loadConfig } from './config';
import { openDatabase, pgliteDirFor } from './db/client';
import { buildApp } from './app';

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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirFor(config.dataDir) });
  const app = await buildApp({ config, db: database.db });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info({ database: database.driver, dataDir: config.dataDir }, 'database ready');
  console.log(`Kincare is running at http://localhost:${port} (database: ${database.driver})`);
}

main().catch((error: unknown) => {
  console.error('Kincare failed to start:', error);
  process.exit(1);
});
