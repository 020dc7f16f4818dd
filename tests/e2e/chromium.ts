import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchOptions } from '@playwright/test';

// How the tests and benchmarks drive Chromium: Debian's builds (never a downloaded one), with the flags
// that work as root on these machines and keep it off the closed network.
//
// Two builds of the same Chromium (one Debian source package, one version):
// - the headless shell (`chromium-headless-shell`), the one the browser tests run in: the same Blink and V8
//   without the desktop browser around them. Measured on the whole browser suite on this 2-core machine:
//   about 30 % less CPU than the full browser (600 s against 810 s for the stage, all else equal).
// - the full browser (`chromium`), for what only the browser itself offers a page: Background Sync,
//   notifications and push (tests that need it say so with `test.use(FULL_CHROMIUM)`), and for the
//   benchmarks, which measure what a person's browser does.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Where Chromium keeps its own settings and cache in a test run: a folder of this process's, not ~. */
let profileRoot: string | undefined;

/** Playwright's launch options for the Chromium at `executablePath`. */
export function chromiumLaunchOptions(executablePath: string): LaunchOptions {
  profileRoot ??= mkdtempSync(join(tmpdir(), 'kincare-chromium-'));
  return {
    executablePath,
    args: CHROMIUM_ARGS,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(profileRoot, 'config'),
      XDG_CACHE_HOME: join(profileRoot, 'cache'),
    },
  };
}

/**
 * For `test.use` in a spec (or a describe block) whose tests need the full browser: the service worker's
 * `sync` event with no page open (Background Sync), notifications and push. The headless shell has none
 * of them. (Playwright starts a worker of its own for such tests.)
 */
export const FULL_CHROMIUM = { launchOptions: chromiumLaunchOptions(CHROMIUM_PATH) };
