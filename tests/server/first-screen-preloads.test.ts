import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePwaDir, startTestApp, type TestContext } from './helpers';
import { chosenEncoding, firstScreenPages } from '../../src/server/plugins/first-screen-preloads';

// Home's paths get index.html with the chunks their first screen renders with linked as modulepreload
// (src/server/plugins/first-screen-preloads.ts), worked out from the build's manifest; every other path
// gets index.html as built, so the sign-in page never fetches the replica's code. The PWA here is a fake
// dist directory whose manifest has the shape Vite writes.

const INDEX_HTML =
  '<!doctype html><html><head><title>Kincare</title>' +
  '<script type="module" crossorigin src="/assets/index-Aa11.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/runtime-Bb22.js">' +
  '</head><body><div id="root"></div></body></html>';

const MANIFEST = {
  'index.html': { file: 'assets/index-Aa11.js', isEntry: true, imports: ['_runtime-Bb22.js'] },
  '_runtime-Bb22.js': { file: 'assets/runtime-Bb22.js' },
  '_signed-in-Cc33.js': { file: 'assets/signed-in-Cc33.js', imports: ['index.html', '_runtime-Bb22.js'] },
  '_dashboard-page-Dd44.js': {
    file: 'assets/dashboard-page-Dd44.js',
    imports: ['_signed-in-Cc33.js', '_button-Ee55.js', 'index.html'],
  },
  '_button-Ee55.js': { file: 'assets/button-Ee55.js', imports: ['index.html'] },
  'src/app/routes/_app/_patient/dashboard.tsx?tsr-split=component': {
    file: 'assets/dashboard-Ff66.js',
    isDynamicEntry: true,
    imports: ['_dashboard-page-Dd44.js'],
  },
  'src/app/routes/_app/_caregiver/caregiver/dashboard.tsx?tsr-split=component': {
    file: 'assets/dashboard-Gg77.js',
    isDynamicEntry: true,
    imports: ['_dashboard-page-Dd44.js', '_care-lists-Hh88.js'],
  },
  '_care-lists-Hh88.js': { file: 'assets/care-lists-Hh88.js', imports: ['_signed-in-Cc33.js'] },
  'src/app/routes/login.tsx?tsr-split=component': {
    file: 'assets/login-Ii99.js',
    isDynamicEntry: true,
    imports: ['_button-Ee55.js'],
  },
  'src/app/styles.css': { file: 'assets/index-Jj00.css' },
};

const PATIENT_HOME = [
  'assets/dashboard-Ff66.js',
  'assets/dashboard-page-Dd44.js',
  'assets/signed-in-Cc33.js',
  'assets/button-Ee55.js',
];

let ctx: TestContext;
let pwaDir: string;

function fakeDist(manifest: string | null): string {
  const dir = fakePwaDir();
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  if (manifest !== null) {
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), manifest);
  }
  return dir;
}

beforeAll(async () => {
  pwaDir = fakeDist(JSON.stringify(MANIFEST));
  ctx = await startTestApp({}, { distDir: pwaDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(pwaDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  return response.rawPayload.toString('utf8');
}

const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((match) => match[1]);

describe("Home's page", () => {
  it("links every chunk the patient's Home renders with and the page does not load yet, in <head>", async () => {
    const response = await get('/dashboard', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['content-encoding']).toBe('br');
    const html = decoded(response);
    // The entry's own files once each (as built), then Home's, before the head ends.
    expect(preloads(html).sort()).toEqual(['assets/runtime-Bb22.js', ...PATIENT_HOME].sort());
    expect(html.indexOf('signed-in-Cc33.js')).toBeLessThan(html.indexOf('</head>'));
    expect(html.match(/index-Aa11\.js/g)).toHaveLength(1);
    expect(html).not.toContain('.css');
    expect(html.replace(/<link rel="modulepreload"[^>]*>/g, '')).toBe(
      INDEX_HTML.replace(/<link rel="modulepreload"[^>]*>/g, ''),
    );
  });

  it("links the caregiver's Home with its own chunks, and keeps the query out of the choice", async () => {
    const html = decoded(await get('/caregiver/dashboard?from=shortcut'));
    expect(preloads(html)).toEqual(
      expect.arrayContaining([
        'assets/dashboard-Gg77.js',
        'assets/care-lists-Hh88.js',
        'assets/signed-in-Cc33.js',
      ]),
    );
    expect(preloads(html)).not.toContain('assets/dashboard-Ff66.js');
  });

  it('sends the same page in gzip, or as it is, to a browser that takes no brotli', async () => {
    const plain = decoded(await get('/dashboard'));
    for (const accepted of ['gzip', 'gzip, deflate', 'br;q=0, gzip']) {
      const response = await get('/dashboard', { 'accept-encoding': accepted });
      expect(response.headers['content-encoding'], accepted).toBe('gzip');
      expect(decoded(response), accepted).toBe(plain);
    }
    for (const accepted of ['identity', 'br;q=0, gzip;q=0']) {
      const response = await get('/dashboard', { 'accept-encoding': accepted });
      expect(response.headers['content-encoding'], accepted).toBeUndefined();
      expect(response.body, accepted).toBe(plain);
    }
  });

  it('answers 304 to a browser that has the page, and the page again once it has changed', async () => {
    const first = await get('/dashboard', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/dashboard', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const stale = await get('/dashboard', { 'accept-encoding': 'br', 'if-none-match': 'W/"an-older-build"' });
    expect(stale.statusCode).toBe(200);
    expect(decoded(stale)).toBe(decoded(first));
  });
});

describe('a new build under a running server', () => {
  it("is picked up at the next request: Home's page never points at the files of the build before", async () => {
    const dir = fakeDist(JSON.stringify(MANIFEST));
    const app = await startTestApp({}, { distDir: dir });
    try {
      const before = decoded(await app.app.inject({ method: 'GET', url: '/dashboard' }));
      expect(preloads(before)).toContain('assets/signed-in-Cc33.js');
      // The next build: new hashes for the entry and the signed-in chunk (written a moment later, so the
      // files' times differ even on a coarse clock).
      await new Promise((resolve) => setTimeout(resolve, 20));
      const renamed = (text: string) => text.replaceAll('Aa11', 'Zz99').replaceAll('Cc33', 'Yy88');
      writeFileSync(join(dir, '.vite', 'manifest.json'), renamed(JSON.stringify(MANIFEST)));
      writeFileSync(join(dir, 'index.html'), renamed(INDEX_HTML));
      const after = decoded(await app.app.inject({ method: 'GET', url: '/dashboard' }));
      expect(after).toContain('/assets/index-Zz99.js');
      expect(preloads(after)).toContain('assets/signed-in-Yy88.js');
      expect(after).not.toMatch(/Aa11|Cc33/);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every other page', () => {
  it('is index.html as built: the sign-in page and the rest never fetch the signed-in chunks', async () => {
    for (const url of ['/', '/login', '/appointments', '/dashboard/extra', '/Dashboard', '/constructor']) {
      const response = await get(url, { 'accept-encoding': 'identity' });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX_HTML);
    }
  });

  it('is served as built where the manifest is missing or damaged (a page is never lost to a preload)', async () => {
    for (const manifest of [null, '{ not json', '"a string"', JSON.stringify({ other: { file: 'x.js' } })]) {
      const dir = fakeDist(manifest);
      try {
        expect(firstScreenPages(dir).size, String(manifest)).toBe(0);
        const app = await startTestApp({}, { distDir: dir });
        try {
          const response = await app.app.inject({ method: 'GET', url: '/dashboard' });
          expect(response.statusCode).toBe(200);
          expect(response.body).toBe(INDEX_HTML);
        } finally {
          await app.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('the encoding chosen', () => {
  it("is the one @fastify/static chooses for the build's own copies, for every Accept-Encoding", async () => {
    const asset = 'export const app = 1; // ' + 'Kincare '.repeat(300);
    mkdirSync(join(pwaDir, 'assets'), { recursive: true });
    writeFileSync(join(pwaDir, 'assets', 'app-Kk11.js'), asset);
    writeFileSync(join(pwaDir, 'assets', 'app-Kk11.js.br'), brotliCompressSync(asset));
    writeFileSync(join(pwaDir, 'assets', 'app-Kk11.js.gz'), gzipSync(asset));
    const headers = [
      'gzip, deflate, br, zstd',
      'br',
      'br;q=0.5, gzip;q=1',
      'br;q=1, gzip;q=0.5',
      'br;q=0, gzip',
      'gzip;q=0',
      'BR, GZIP',
      '*',
      '*, br;q=0',
      'deflate',
      'identity',
      '',
    ];
    for (const accepted of headers) {
      const file = await get('/assets/app-Kk11.js', { 'accept-encoding': accepted });
      const page = await get('/dashboard', { 'accept-encoding': accepted });
      expect(page.headers['content-encoding'], accepted).toBe(file.headers['content-encoding']);
      expect(chosenEncoding(accepted), accepted).toBe(file.headers['content-encoding']);
    }
    expect(chosenEncoding(undefined)).toBeUndefined();
  });
});
