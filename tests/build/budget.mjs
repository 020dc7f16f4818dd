// The first-load budget: how much gzip JavaScript a page needs before it can show itself,
// worked out from the build's files. Vite's manifest (dist/.vite/manifest.json, build.manifest) lists each
// chunk's static imports; a page loads the entry (index.html) with everything it imports statically, plus
// the component chunks of the routes it renders (TanStack Router's autoCodeSplitting makes one per route)
// with their static imports. Dynamic imports (the password dictionary, a PDF viewer) are loaded later, on
// demand, and are not counted. Sizes are gzip at level 9, in kB of 1000 bytes, as Vite prints them.
//
// Run after `vite build`: `node tests/build/budget.mjs` (npm run budget). Exits 1 with the page's chunks,
// largest first, when a page is over its budget. npm test runs it after its build: a page over budget fails it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = fileURLToPath(new URL('../..', import.meta.url));
const distDir = process.env.BUDGET_DIST_DIR ?? join(root, 'dist');

/** Each page: the route files whose components render it, outermost first, and its budget in kB. */
export const PAGES = [
  { name: '/login', routes: ['src/app/routes/login.tsx'], budgetKb: 120 },
  {
    name: '/dashboard (patient, signed in)',
    routes: [
      'src/app/routes/_app.tsx',
      'src/app/routes/_app/_patient.tsx',
      'src/app/routes/_app/_patient/dashboard.tsx',
    ],
    budgetKb: 160,
  },
  {
    name: '/caregiver/dashboard (caregiver, signed in)',
    routes: [
      'src/app/routes/_app.tsx',
      'src/app/routes/_app/_caregiver.tsx',
      'src/app/routes/_app/_caregiver/caregiver/dashboard.tsx',
    ],
    budgetKb: 160,
  },
];

const kb = (bytes) => (bytes / 1000).toFixed(1);

/**
 * The manifest keys a route's rendering needs: its component chunk (split) or the route file itself; or,
 * for a route grouped into a shared chunk (vite.config.ts puts the signed-in layout routes in `signed-in`),
 * the chunk whose source map holds the route's file.
 */
function routeKeys(manifest, route, distDirectory) {
  const keys = Object.keys(manifest).filter((key) => key === route || key === `${route}?tsr-split=component`);
  if (keys.length > 0) return keys;
  return Object.keys(manifest).filter((key) => {
    const mapPath = join(distDirectory, `${manifest[key].file}.map`);
    if (!manifest[key].file.endsWith('.js') || !existsSync(mapPath)) return false;
    const { sources = [] } = JSON.parse(readFileSync(mapPath, 'utf8'));
    return sources.some((source) => source.replace(/\\/g, '/').endsWith(`/${route}`));
  });
}

/** The chunk files a page loads: each start's file and, transitively, its static imports. */
export function pageFiles(manifest, startKeys) {
  const seen = new Set();
  const files = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no chunk "${key}"`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of startKeys) visit(key);
  return [...files];
}

export function measure(distDirectory = distDir) {
  const manifestPath = join(distDirectory, '.vite', 'manifest.json');
  if (!existsSync(manifestPath))
    throw new Error(
      `no build manifest at ${manifestPath}: run \`npx vite build\` first (build.manifest is on in vite.config.ts)`,
    );
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('the build manifest has no index.html entry');
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) {
      const source = readFileSync(join(distDirectory, file));
      sizes.set(file, {
        raw: source.length,
        gzip: gzipSync(source, { level: 9 }).length,
        brotli: brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      });
    }
    return sizes.get(file);
  };
  return PAGES.map((page) => {
    const starts = [entry];
    for (const route of page.routes) {
      const keys = routeKeys(manifest, route, distDirectory);
      // A renamed or moved route must not pass by measuring nothing.
      if (keys.length === 0)
        throw new Error(
          `the build manifest has no chunk for ${route} (page ${page.name}): update PAGES in tests/build/budget.mjs`,
        );
      starts.push(...keys);
    }
    const chunks = pageFiles(manifest, starts)
      .map((file) => ({ file, ...sizeOf(file) }))
      .sort((a, b) => b.gzip - a.gzip);
    const total = (field) => chunks.reduce((sum, chunk) => sum + chunk[field], 0);
    return { ...page, chunks, raw: total('raw'), gzip: total('gzip'), brotli: total('brotli') };
  });
}

/**
 * What the first paint of every page waits for beside the page itself: the stylesheets index.html links
 * (vite.config.ts writes the stylesheet into the page, so a phone paints without a second request).
 */
export function linkedStylesheets(distDirectory = distDir) {
  const html = readFileSync(join(distDirectory, 'index.html'), 'utf8');
  return [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)].map((match) => match[0]);
}

/** For npm test's closing line (tests/run-all.mjs): each page is one check, and the stylesheet one more. */
function report(passed, failed) {
  if (process.env.BUDGET_RESULTS)
    writeFileSync(process.env.BUDGET_RESULTS, JSON.stringify({ passed, failed }));
}

function main() {
  let results;
  try {
    results = measure();
  } catch (error) {
    console.error(`Budget check failed: ${error.message}`);
    report(0, 1);
    process.exit(1);
  }
  let over = 0;
  for (const page of results) {
    const within = page.gzip <= page.budgetKb * 1000;
    if (!within) over += 1;
    console.log(
      `${within ? 'ok  ' : 'OVER'} ${page.name}: ${kb(page.gzip)} kB gzip JavaScript of ${page.budgetKb} kB ` +
        `(${kb(page.brotli)} kB brotli, ${kb(page.raw)} kB uncompressed, ${page.chunks.length} files)`,
    );
    if (!within || process.argv.includes('--verbose')) {
      for (const chunk of page.chunks) console.log(`       ${kb(chunk.gzip).padStart(7)} kB  ${chunk.file}`);
    }
  }
  const stylesheets = linkedStylesheets();
  if (stylesheets.length > 0) {
    over += 1;
    console.log(`OVER index.html links a stylesheet the first paint waits for: ${stylesheets.join(' ')}`);
  } else console.log('ok   index.html carries its stylesheet: the first paint waits for no second request');
  report(results.length + 1 - over, over);
  if (over > 0) {
    console.error(
      `\n${over} check(s) over budget. A page over its JavaScript: move what it does not need on its first ` +
        'render behind a dynamic import() or into a route that needs it (see the chunks listed above). A ' +
        'linked stylesheet: see inlineStylesheet() in vite.config.ts.',
    );
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
