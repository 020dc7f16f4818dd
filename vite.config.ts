/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const THEME_COLOUR = '#0f766e';

/**
 * The stylesheet written into index.html instead of linked from it. Linked, the first paint (the loading
 * text, then the first screen) waited for a second request after the page, a round trip on a phone's slow
 * network (tests/bench/lighthouse.ts: /login's first contentful paint 1.5-1.7 s; 0.6-1.6 s without it).
 * It costs nothing on later visits: the page is revalidated, not fetched again, and the service worker
 * serves it offline.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'kincare-inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        return html.replace(
          /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g,
          (link, file: string) => {
            const asset = context.bundle?.[file];
            if (asset?.type !== 'asset') return link;
            const css = String(asset.source);
            return css.includes('</style') ? link : `<style>${css}</style>`;
          },
        );
      },
    },
  };
}

/**
 * The page's unit tests (jsdom) that change what other files would import or see: they mock modules
 * (`vi.mock`) or stub globals, so each runs in a module graph and a page of its own (project 'unit').
 * The others share one per worker (project 'unit-shared'): building a page and importing React again
 * for each file was most of their time (measured: 118 CPU-seconds for the 50 files isolated, 25 shared).
 */
function pageTestsThatMock(): string[] {
  const found: string[] = [];
  for (const dir of ['tests/unit/app', 'tests/unit/local'])
    for (const name of readdirSync(dir))
      if (
        /\.test\.tsx?$/.test(name) &&
        /\bvi\.(mock|doMock|stubGlobal|useFakeTimers)\(/.test(readFileSync(join(dir, name), 'utf8'))
      )
        found.push(`${dir}/${name}`);
  return found;
}
const UNIT_TESTS_ISOLATED = pageTestsThatMock();

/** Unit tests that run without jsdom (see the project 'unit-node' below). */
const UNIT_TESTS_WITHOUT_A_PAGE = ['tests/unit/domain/**/*.test.ts', 'tests/unit/*.test.ts'];

/**
 * Server test files that give the same answer whichever database the run is given, so the Postgres pass
 * of `npm test` (tests/run-all.mjs) leaves them out (project 'server-once'): they never open the test
 * database (their own PGlite, a server process on PGlite, or none at all), or what they test is how a
 * hostile or heavy file is read, which is done before anything reaches a database. They are a third of
 * the server tests' time, and running them twice tested nothing more.
 */
const SERVER_TESTS_ONCE = [
  // never open the run's database
  'tests/server/billing-stripe.test.ts',
  'tests/server/config.test.ts',
  'tests/server/fair-queue.test.ts',
  'tests/server/lab-corpus.test.ts',
  'tests/server/migration-*.test.ts',
  'tests/server/record-ids-migration.test.ts',
  'tests/server/ocr.test.ts',
  'tests/server/process.test.ts',
  'tests/server/push-endpoint-address.test.ts',
  'tests/server/push-transport.test.ts',
  // refused before any route, or the database, reads the body
  'tests/server/body-depth.test.ts',
  // read files: refusals and fairness are decided before a database is asked anything
  'tests/server/fuzz-files.test.ts',
  'tests/server/hostile-files.test.ts',
  'tests/server/ocr-fairness.test.ts',
  // pixels only
  'tests/server/photo-page.test.ts',
];

export default defineConfig({
  // Zod without eval on the device, set before any schema is built (src/local/zod-without-eval.ts).
  resolve: {
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('src/local/zod-without-eval.ts', import.meta.url)),
      },
    ],
  },
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/app/routes',
      generatedRouteTree: 'src/app/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
    inlineStylesheet(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      includeManifestIcons: false,
      manifest: {
        // A fixed identity: the installed app stays the same app if start_url ever changes.
        id: '/',
        name: 'Kincare',
        short_name: 'Kincare',
        description:
          'Your health records, medicines and appointments, for you and the people who care for you.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: THEME_COLOUR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // Shown by the browser's install dialog; made by `npm run screenshots` (tests/e2e/screenshots.mjs).
        screenshots: [
          {
            src: '/screenshots/install-phone.png',
            sizes: '390x844',
            type: 'image/png',
            form_factor: 'narrow',
            label: 'Your next appointments and what to do today, on a phone',
          },
          {
            src: '/screenshots/install-desktop.png',
            sizes: '1280x800',
            type: 'image/png',
            form_factor: 'wide',
            label: 'Kincare on a computer: the menu and your home screen',
          },
        ],
        shortcuts: [
          {
            name: "Today's medicines",
            short_name: 'Medicines',
            url: '/prescriptions',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
          {
            name: 'New appointment',
            short_name: 'Appointment',
            url: '/appointments?new=1',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,webmanifest}'],
        // The install dialog's screenshots are fetched by the browser only when it offers installation.
        globIgnores: ['screenshots/**'],
      },
      devOptions: { enabled: false },
    }),
    // Brotli and gzip copies of every text file, made once at build time: the server sends the one the
    // browser accepts (src/server/plugins/static-app.ts) without compressing on each request.
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      include: /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/,
      exclude: [/\.map$/, /\.vite\//],
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
  server: { port: 5173, proxy: { '/api': 'http://localhost:8080' } },
  // The manifest lists each chunk's imports: tests/build/budget.mjs works out from it what a page loads.
  build: {
    sourcemap: true,
    manifest: true,
    // Every browser that installs Kincare preloads modules itself (Chromium 66, Safari 17, Firefox 115):
    // the polyfill only helped older ones fetch early, and cost the first load of every page 0.4 kB.
    modulePreload: {
      polyfill: false,
      // What a screen's chunk needs is listed in the entry, to fetch beside it (every screen's list, in the
      // entry every page loads). The runtime and the icons' base are the entry's own imports, so they are
      // loaded before any screen is asked for: listing them again for each screen cost every page 0.1 kB.
      // (A name left out here only loses a preload: the import itself still fetches it.)
      resolveDependencies: (_file, deps) =>
        deps.filter((dep) => !/assets[\\/](rolldown-runtime|lucide-base)-/.test(dep)),
    },
    rolldownOptions: {
      output: {
        // Each large library in a chunk of its own. Left to itself the bundler grouped modules by who shares
        // them, and put axios and Zod in one chunk with the Button: the sign-in page, which needs the Button
        // only, then loaded both (tests/build/budget.mjs shows what each page loads).
        codeSplitting: {
          groups: [
            { name: 'axios', test: /node_modules[\\/]axios[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'luxon', test: /node_modules[\\/]luxon[\\/]/ },
            // What every icon is drawn with stays apart: the sign-in page needs it, not the shell's icons.
            {
              name: 'lucide-base',
              test: /lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|Icon|context|defaultAttributes|shared[\\/].*)\.mjs$/,
            },
            // What every page loads from the start (the entry's static imports) in the entry's chunk: as
            // separate chunks they were sixteen requests before the first screen (a phone on a slow network
            // waits a round trip for every few of them).
            { name: 'initial', tags: ['$initial'] },
            // Whether the device is online: the sign-in page and the signed-in shell both ask, so it stays
            // apart (left to itself, the bundler put it in `signed-in`, and the sign-in page loaded Dexie).
            { name: 'use-online', test: /src[\\/]app[\\/]ui[\\/]use-online\.ts$/ },
            // What every signed-in first screen needs beside the entry, in one chunk: the replica (Dexie and
            // its React hooks), the session and permission hooks, the signed-in layout (the routes _app,
            // _patient and _caregiver, and the shell they draw: header, sidebar, tab bar) with the icons of
            // its menus, the clock every first screen shows, and what Home's latest results draw with (the
            // badge, its arrows, the reports' order). Apart, they were a dozen
            // small files, each a request on the way to Home; a phone's browser opens six connections at a
            // time, so the seventh waited a round trip (tests/bench/lighthouse.ts). The sign-in page needs none.
            {
              name: 'signed-in',
              test: /node_modules[\\/](dexie|dexie-react-hooks)[\\/]|src[\\/]local[\\/](db|sync-trigger)\.ts$|src[\\/]domain[\\/](permissions|schedule-texts|clock|lab-report-order)\.ts$|src[\\/]app[\\/]shell[\\/](use-caregiver-permissions|use-selected-patient|use-session|layout|header|sidebar|tab-bar|navigation|use-replica-sync|use-failed-change-toasts|sync-status-placeholder)\.tsx?$|src[\\/]app[\\/]ui[\\/](use-wide-screen\.ts|badge\.tsx)$|src[\\/]app[\\/]routes[\\/]_app(\.tsx|[\\/]_patient\.tsx|[\\/]_caregiver\.tsx)\?tsr-split=component$|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](heart-pulse|heart-handshake|key-round|calendar-clock|stethoscope|users-round|refresh-cw|pill|store|flask-conical|arrow-up|arrow-down)\.mjs$/,
            },
            // What the caregiver's Home needs beside the shell, small files both: in one chunk, one request and
            // one gzip stream fewer on that first screen (the caregiver's other care pages load them together too).
            {
              name: 'care-lists',
              test: /src[\\/]app[\\/](ui[\\/]permission-summary\.tsx|features[\\/]caregiver-patients[\\/]use-care-lists\.ts)$/,
            },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS_ISOLATED,
          environment: 'jsdom',
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-shared',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          exclude: [...UNIT_TESTS_WITHOUT_A_PAGE, ...UNIT_TESTS_ISOLATED],
          environment: 'jsdom',
          setupFiles: ['fake-indexeddb/auto'],
          isolate: false,
        },
      },
      {
        // The domain's rules and the repository's own checks need no page: no jsdom to build for each file
        // (about a second each), and one module graph per worker.
        extends: true,
        test: {
          name: 'unit-node',
          include: UNIT_TESTS_WITHOUT_A_PAGE,
          environment: 'node',
          isolate: false,
        },
      },
      {
        test: {
          name: 'sync',
          include: ['tests/sync/**/*.test.ts'],
          environment: 'node',
          // On Postgres, a database per worker (tests/server/worker-database.ts), dropped when the run ends.
          setupFiles: ['tests/server/worker-database.ts'],
          globalSetup: ['tests/server/worker-database.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: SERVER_TESTS_ONCE,
          environment: 'node',
          // One module graph per worker: importing the whole server again for each file was a third of
          // the stage. Each file starts its own app on its own database (helpers.ts) and closes it.
          isolate: false,
          setupFiles: ['tests/server/worker-database.ts'],
          globalSetup: ['tests/server/worker-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-once',
          include: SERVER_TESTS_ONCE,
          environment: 'node',
          setupFiles: ['tests/server/worker-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
