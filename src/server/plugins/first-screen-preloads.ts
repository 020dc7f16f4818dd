import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';

// Home, the screen a signed-in person opens the app on, renders with chunks the entry only asks for once
// it has run: on a phone's slow network that is a round trip after the entry's download and its start,
// before Dexie and the signed-in shell even leave the server (tests/bench/lighthouse.ts). For Home's
// paths, index.html is sent with those chunks linked as modulepreload, so the browser fetches them beside
// the entry. Every other path gets index.html as built: the sign-in page must not carry the replica.
// The chunks are worked out from the build's manifest (build.manifest in vite.config.ts), as
// tests/build/budget.mjs works out what a page loads, once per build: a new build written under a running
// server is picked up at the next request, as index.html itself is. Without a manifest nothing is added.

/** The paths whose page links its first screen's chunks, with the route file that renders the screen. */
export const FIRST_SCREEN_ROUTES: Readonly<Record<string, string>> = {
  '/dashboard': 'src/app/routes/_app/_patient/dashboard.tsx',
  '/caregiver/dashboard': 'src/app/routes/_app/_caregiver/caregiver/dashboard.tsx',
};

type ManifestChunk = { file: string; imports?: string[] };
type Manifest = Record<string, ManifestChunk>;

/** index.html with a first screen's chunks linked, ready to send in each encoding the browser may accept. */
export type FirstScreenPage = { etag: string; identity: Buffer; br: Buffer; gzip: Buffer };

/** The JavaScript files a route renders with: its component chunk and, transitively, their static imports. */
export function routeFiles(manifest: Manifest, route: string): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) return;
    seen.add(key);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(`${route}?tsr-split=component`);
  visit(route);
  return files;
}

function readManifest(distDir: string): Manifest | null {
  const path = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(path)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Manifest) : null;
  } catch {
    return null; // a damaged manifest costs the preloads, never the page
  }
}

/** Each first screen's page, by path: index.html with the links its chunks need and the entry lacks. */
export function firstScreenPages(distDir: string): Map<string, FirstScreenPage> {
  const pages = new Map<string, FirstScreenPage>();
  const manifest = readManifest(distDir);
  if (!manifest) return pages;
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  if (!html.includes('</head>')) return pages;
  for (const [path, route] of Object.entries(FIRST_SCREEN_ROUTES)) {
    // Only what index.html does not already load or link.
    const files = routeFiles(manifest, route).filter(
      (file) => /^[\w./-]+\.js$/.test(file) && !html.includes(`"/${file}"`),
    );
    if (files.length === 0) continue;
    const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
    const page = Buffer.from(html.replace('</head>', `${links}</head>`), 'utf8');
    pages.set(path, {
      // Weak: the same page is sent in three encodings, each a different series of bytes.
      etag: `W/"${createHash('sha256').update(page).digest('base64url').slice(0, 27)}"`,
      identity: page,
      br: brotliCompressSync(page, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(page, { level: 9 }),
    });
  }
  return pages;
}

/**
 * The encoding to send a page in, chosen exactly as @fastify/static chooses the build's copies (the same
 * negotiator, weights included, and '*' read as gzip): brotli, then gzip, else none.
 */
export function chosenEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (acceptEncoding === undefined) return undefined;
  return negotiate(acceptEncoding.toLowerCase().replace(/\*/g, 'gzip'), ['br', 'gzip'] as const) ?? undefined;
}

/** When index.html and the manifest were last written (0 when missing): a new build changes it. */
function buildStamp(distDir: string): string {
  const stamp = (path: string) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return 0;
    }
  };
  return `${stamp(join(distDir, 'index.html'))}:${stamp(join(distDir, '.vite', 'manifest.json'))}`;
}

/** The first screens' pages of the build in `distDir`, made again when a new build is written there. */
export function firstScreenPageCache(distDir: string): { get(path: string): FirstScreenPage | undefined } {
  let stamp = '';
  let pages = new Map<string, FirstScreenPage>();
  // Made at start (compressing takes a moment: not on a person's first request), then again for each new
  // build. A page that cannot be made costs its links, never the page or the server's start.
  const refresh = () => {
    stamp = buildStamp(distDir);
    try {
      pages = firstScreenPages(distDir);
    } catch {
      pages = new Map(); // index.html unreadable or half-written: the page as built is sent meanwhile
    }
  };
  refresh();
  return {
    get(path) {
      if (!Object.hasOwn(FIRST_SCREEN_ROUTES, path)) return undefined;
      if (buildStamp(distDir) !== stamp) refresh();
      return pages.get(path);
    },
  };
}
