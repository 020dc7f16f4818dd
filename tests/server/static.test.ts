import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePwaDir, multipartForm, startTestApp, type TestContext } from './helpers';
import { as, makePerson, type Person } from './fixtures';
import { TINY_PNG } from '../fixtures/images';

// How the built PWA and the API's JSON travel: the brotli or gzip copy the build made, chosen by the
// browser's Accept-Encoding (brotli first), with Vary: Accept-Encoding; a year of cache for hashed assets
// and none for index.html, sw.js and the manifest, whichever copy is sent; API answers over 1 kB compressed
// on the fly and still no-store; uploads, stored files and compressed request bodies left as they were.
// The PWA here is a small fake dist directory with copies made as the build makes them.

const APP_JS = `export const app = ${JSON.stringify('Kincare '.repeat(400))};\n`;
const TINY_JS = 'export const tiny = 1;\n';
const INDEX_HTML = `<!doctype html><title>Kincare</title><div id="root"></div><!-- ${'x'.repeat(2000)} -->`;
const SW_JS = `self.addEventListener('fetch', () => {}); // ${'y'.repeat(2000)}\n`;
const MANIFEST = JSON.stringify({ name: 'Kincare', description: 'z'.repeat(2000) });

let ctx: TestContext;
let pwaDir: string;
let patient: Person;

/** Writes a file and, as vite-plugin-compression2 does, its .br and .gz copies. */
function withCopies(path: string, text: string) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text));
}

beforeAll(async () => {
  pwaDir = fakePwaDir();
  mkdirSync(join(pwaDir, 'assets'));
  mkdirSync(join(pwaDir, 'icons'));
  withCopies(join(pwaDir, 'index.html'), INDEX_HTML);
  withCopies(join(pwaDir, 'assets', 'app-Ab12Cd34.js'), APP_JS);
  writeFileSync(join(pwaDir, 'assets', 'tiny-Ef56Gh78.js'), TINY_JS);
  withCopies(join(pwaDir, 'sw.js'), SW_JS);
  withCopies(join(pwaDir, 'manifest.webmanifest'), MANIFEST);
  writeFileSync(join(pwaDir, 'icons', 'icon-192.png'), TINY_PNG);
  ctx = await startTestApp({}, { distDir: pwaDir });
  patient = await makePerson(ctx, 'Patient');
});
afterAll(async () => {
  await ctx.close();
  rmSync(pwaDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

/** The body as the browser reads it, after undoing the Content-Encoding. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  expect(encoding ?? 'identity').toBe('identity');
  return response.rawPayload.toString('utf8');
}

function expectVaries(response: LightMyRequestResponse) {
  expect(String(response.headers.vary ?? '').toLowerCase()).toContain('accept-encoding');
}

describe('the built PWA', () => {
  it("sends a hashed asset's brotli copy when the browser accepts brotli, whatever the order it lists", async () => {
    for (const accepted of ['gzip, deflate, br, zstd', 'br', 'br;q=1.0, gzip;q=0.8, *;q=0.1']) {
      const response = await get('/assets/app-Ab12Cd34.js', accepted);
      expect(response.statusCode, accepted).toBe(200);
      expect(response.headers['content-encoding'], accepted).toBe('br');
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expectVaries(response);
      expect(decoded(response)).toBe(APP_JS);
      expect(response.rawPayload.length).toBeLessThan(APP_JS.length / 5);
    }
  });

  it('sends the gzip copy to a browser without brotli, and the file itself to one that accepts neither', async () => {
    for (const accepted of ['gzip', 'gzip, deflate', 'br;q=0, gzip']) {
      const response = await get('/assets/app-Ab12Cd34.js', accepted);
      expect(response.headers['content-encoding'], accepted).toBe('gzip');
      expect(decoded(response)).toBe(APP_JS);
    }
    for (const accepted of [undefined, 'identity']) {
      const response = await get('/assets/app-Ab12Cd34.js', accepted);
      expect(response.headers['content-encoding'], accepted).toBeUndefined();
      expect(response.body).toBe(APP_JS);
      // The plain answer varies too: a shared cache must not hand it to a browser that asked for brotli.
      expectVaries(response);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends a file the build left without copies (too small to gain) as it is, to a brotli browser too', async () => {
    const response = await get('/assets/tiny-Ef56Gh78.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(TINY_JS);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get('/icons/icon-192.png', 'br, gzip');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('sends index.html (for / and every client route), sw.js and the manifest compressed and never cached', async () => {
    const expected: Record<string, string> = {
      '/': INDEX_HTML,
      '/appointments': INDEX_HTML,
      '/caregiver/dashboard?from=shortcut': INDEX_HTML,
      '/index.html': INDEX_HTML,
      '/sw.js': SW_JS,
      '/manifest.webmanifest': MANIFEST,
    };
    for (const [url, body] of Object.entries(expected)) {
      for (const [accepted, encoding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
      ] as const) {
        const response = await get(url, accepted);
        const label = `${url} with ${accepted ?? 'no Accept-Encoding'}`;
        expect(response.statusCode, label).toBe(200);
        expect(response.headers['content-encoding'], label).toBe(encoding);
        expect(response.headers['cache-control'], label).toBe('no-cache');
        expectVaries(response);
        expect(decoded(response), label).toBe(body);
      }
    }
    expect((await get('/', 'br')).headers['content-type']).toContain('text/html');
    expect((await get('/sw.js', 'br')).headers['content-type']).toMatch(/javascript/);
    expect((await get('/manifest.webmanifest', 'br')).headers['content-type']).toMatch(/manifest\+json/);
  });
});

describe('API answers', () => {
  async function bookMany(count: number) {
    for (let i = 0; i < count; i++) {
      const response = await as(ctx, patient, {
        method: 'POST',
        url: '/api/appointments',
        payload: {
          id: crypto.randomUUID(),
          patient_id: patient.patientId,
          appointment_title: `Check-up number ${i} with the family doctor about the blood pressure readings`,
          appointment_date: '2026-12-01T10:00:00Z',
        },
      });
      expect(response.statusCode).toBe(201);
    }
  }

  it('compresses a JSON answer over 1 kB (the pull, with its own serializer), and keeps it no-store', async () => {
    await bookMany(12);
    const plain = await as(ctx, patient, { method: 'GET', url: '/api/sync/pull?limit=100' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(2000);
    for (const [accepted, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await as(ctx, patient, {
        method: 'GET',
        url: '/api/sync/pull?limit=100',
        headers: { 'accept-encoding': accepted },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.headers['cache-control']).toBe('no-store');
      expectVaries(response);
      expect(response.rawPayload.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decoded(response))).toEqual(plain.json());
    }
    const list = await as(ctx, patient, {
      method: 'GET',
      url: '/api/appointments',
      headers: { 'accept-encoding': 'br' },
    });
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(list)).data).toHaveLength(12);
  });

  it('leaves a small answer, an error and a 404 under /api as they are, still no-store', async () => {
    for (const url of ['/api/health', '/api/auth/profile', '/api/nothing-here']) {
      const response = await get(url, 'br, gzip');
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(() => response.json(), url).not.toThrow();
    }
  });

  it('takes a multipart upload from a browser that accepts compression, and serves the stored file untouched', async () => {
    const form = multipartForm({}, [
      { field: 'image', filename: 'letter.png', contentType: 'image/png', bytes: TINY_PNG },
    ]);
    const uploaded = await as(ctx, patient, {
      method: 'POST',
      url: '/api/upload-image?type=appointment',
      payload: form.payload,
      headers: { ...form.headers, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(uploaded.statusCode).toBe(201);
    const url = JSON.parse(decoded(uploaded)).files[0].url as string;
    const served = await get(url, 'gzip, deflate, br');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-encoding']).toBeUndefined();
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('no-store');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('does not unpack a compressed request body (it could unpack far past the body limit)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'someone@example.com', password: 'whatever it is' })),
    });
    expect(response.statusCode).toBe(400);
  });
});
