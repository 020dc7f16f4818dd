import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run screenshots` (tests/e2e/screenshots.mjs): the browser tests' server and Chromium, running only
// screenshots.shot.ts (not a test: the normal run matches *.spec.ts and never picks it up).
export default defineConfig({
  ...base,
  testMatch: 'screenshots.shot.ts',
  workers: 1,
  timeout: 300_000,
  reporter: [['list']],
  // Its own folder: a browser test run going on meanwhile empties test-results/ when it starts.
  outputDir: mkdtempSync(join(tmpdir(), 'kincare-screenshots-')),
});
