import { dataDirWithDatabase } from '../fixtures/database-template';

// The browser tests' server (playwright.config.ts: webServer): src/server/main.ts on a DATA_DIR that
// already holds the database its first start would make (a copy, tests/fixtures/database-template.ts),
// so the run's first test does not wait for PGlite's initdb, the migrations and the sample directory.
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must be set');
await dataDirWithDatabase(dataDir);
await import('../../src/server/main');
