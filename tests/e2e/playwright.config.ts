import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions, HEADLESS_SHELL_PATH } from './chromium';

// Browser tests: Debian's Chromium (chromium.ts: the headless shell, the full browser where asked) against the real server (built PWA + API on PGlite) with a fresh
// data folder per run; tests read the mailbox it writes (DATA_DIR/mail).

const port = Number(process.env.E2E_PORT ?? 8181);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kincare-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
process.env.E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Each test makes its own people (fixtures.ts), so any two can run side by side: the workers share out
  // tests, not files, and none waits at the end for the last long file of the other. A spec whose fake
  // service listens on a fixed port keeps its tests in one worker (test.describe.configure).
  fullyParallel: true,
  // Three on this 2-core machine: a worker waits on the server and on timers, and the third fills that
  // time (measured side by side: 143 tests in 378 s with three, 466 s with two; README.md, Two commands).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // On CI a failed test runs once more, and npm test names it if it then passes (tests/run-all.mjs): a
  // timing race on a loaded machine is then reported instead of refusing the whole change. A real failure
  // fails twice.
  retries: process.env.CI ? 1 : 0,
  // A journey checks each of its states at two sizes (support.ts: atEachViewport): axe alone takes seconds
  // a page on a busy 2-core machine.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: join(dataDir, 'e2e-results.json') }]],
  use: {
    baseURL: `http://localhost:${port}`,
    // The headless shell; the tests that need the full browser ask for it (chromium.ts: FULL_CHROMIUM).
    launchOptions: chromiumLaunchOptions(HEADLESS_SHELL_PATH),
    trace: 'off',
    // A tap that cannot happen (something covers the button, the page went away) fails within this, with
    // what was in the way, instead of waiting out the test's whole timeout; on CI the retry then comes
    // a minute and a half sooner.
    actionTimeout: 20_000,
  },
  webServer: {
    command: 'node --import tsx tests/e2e/server.ts',
    cwd: join(import.meta.dirname, '..', '..'),
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${port}`,
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      RATE_LIMIT_OTP_PER_MINUTE: '1000',
      // With REDIS_URL set (as .ci/run does) the limits count in Redis: this run's counters apart from others'.
      REDIS_KEY_PREFIX: `kincare-e2e-${process.pid}:`,
      // The weather service: tests/e2e/weather.spec.ts answers like Open-Meteo there (elsewhere nothing does).
      WEATHER_API_URL: `http://127.0.0.1:${port + 1}`,
      // Fitbit: tests/e2e/fitbit.spec.ts answers like Fitbit's OAuth and Web API there (the app's port + 2).
      FITBIT_CLIENT_ID: 'e2e-fitbit-client',
      FITBIT_AUTHORIZE_URL: `http://127.0.0.1:${port + 2}/oauth2/authorize`,
      FITBIT_TOKEN_URL: `http://127.0.0.1:${port + 2}/oauth2/token`,
      FITBIT_API_URL: `http://127.0.0.1:${port + 2}`,
    },
  },
});
