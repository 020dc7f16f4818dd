import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_INVALID } from '../../src/server/plugins/storage';
import { startTestApp, type TestContext } from './helpers';
import { TINY_PNG } from '../fixtures/images';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx.close());

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

function fetchLink(url: string) {
  return ctx.app.inject({ method: 'GET', url });
}

function parts(url: string): { path: string; expires: string; signature: string } {
  const parsed = new URL(url, 'http://localhost');
  return {
    path: parsed.pathname,
    expires: parsed.searchParams.get('expires') ?? '',
    signature: parsed.searchParams.get('signature') ?? '',
  };
}

describe('app.storage', () => {
  it('stores bytes under DATA_DIR/files/<kind>, reads them back with their type, and removes them', async () => {
    const { key } = await ctx.app.storage.put(
      'lab',
      PDF,
      'application/pdf',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    expect(key).toMatch(/^lab\/[0-9a-f]{32}\/[0-9a-f]{32}\.pdf$/);
    expect(existsSync(join(ctx.dataDir, 'files', key))).toBe(true);
    const read = await ctx.app.storage.read(key);
    expect(read?.contentType).toBe('application/pdf');
    expect(read?.bytes.equals(PDF)).toBe(true);
    await ctx.app.storage.remove(key);
    expect(await ctx.app.storage.read(key)).toBeNull();
    await expect(ctx.app.storage.remove(key)).resolves.toBeUndefined(); // removing twice is fine
  });

  it('gives every file a new key', async () => {
    const first = await ctx.app.storage.put(
      'prescription',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const second = await ctx.app.storage.put(
      'prescription',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    expect(first.key).not.toBe(second.key);
  });

  it.each([
    '../jwt-secret',
    'profile/../../jwt-secret',
    'profile/0123456789abcdef0123456789abcdef.exe',
    'other/0123456789abcdef0123456789abcdef.png',
    '/etc/passwd',
    'profile/0123456789abcdef0123456789abcdef.png/..',
  ])('refuses the key %j', async (key) => {
    expect(await ctx.app.storage.read(key)).toBeNull();
    await expect(ctx.app.storage.signedUrl(key)).rejects.toThrow();
    await expect(ctx.app.storage.remove(key)).resolves.toBeUndefined();
  });
});

describe('GET /api/files/*', () => {
  it('serves an image through its signed link, inline in a sandbox, never cached or sniffed', async () => {
    const { key } = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const url = await ctx.app.storage.signedUrl(key);
    expect(url).toMatch(new RegExp(`^/api/files/${key}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
    const expires = Number(parts(url).expires);
    expect(expires - Date.now() / 1000).toBeGreaterThan(890);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(900);

    const response = await fetchLink(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('serves a PDF as a PDF, as a download in a sandbox', async () => {
    const { key } = await ctx.app.storage.put(
      'lab',
      PDF,
      'application/pdf',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const response = await fetchLink(await ctx.app.storage.signedUrl(key, 60));
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="kincare-lab.pdf"');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.rawPayload.equals(PDF)).toBe(true);
  });

  it('lists the stored files of a kind with when they were written', async () => {
    const { key } = await ctx.app.storage.put(
      'appointment',
      PDF,
      'application/pdf',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const listed = await ctx.app.storage.list('appointment');
    const entry = listed.find((file) => file.key === key);
    expect(entry?.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await ctx.app.storage.remove(key);
    expect((await ctx.app.storage.list('appointment')).map((file) => file.key)).not.toContain(key);
  });

  it('files each owner’s files in a folder of their own, and still reads and lists keys from before folders', async () => {
    const owner = '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b';
    const { key } = await ctx.app.storage.put('lab', PDF, 'application/pdf', owner);
    expect(key.startsWith('lab/0f8e2b4c5d6a4e7f8a9b0c1d2e3f4a5b/')).toBe(true);
    // A key written before files had owners: `<kind>/<32 hex>.<ext>`, straight in the kind's folder.
    const old = `lab/${'c'.repeat(32)}.pdf`;
    writeFileSync(join(ctx.dataDir, 'files', old), PDF);
    expect((await ctx.app.storage.read(old))?.contentType).toBe('application/pdf');
    expect(await ctx.app.storage.signedUrl(old)).toContain(old);
    // A folder that is not an owner's, and what is in it, is not ours to judge.
    mkdirSync(join(ctx.dataDir, 'files', 'lab', 'not-an-owner'), { recursive: true });
    writeFileSync(join(ctx.dataDir, 'files', 'lab', 'not-an-owner', `${'d'.repeat(32)}.pdf`), PDF);
    const keys = (await ctx.app.storage.list('lab')).map((file) => file.key);
    expect(keys).toEqual(expect.arrayContaining([key, old]));
    expect(keys.some((listed) => listed.includes('not-an-owner'))).toBe(false);
    // An owner id that is not a UUID is refused rather than made into a path.
    await expect(ctx.app.storage.put('lab', PDF, 'application/pdf', '../../etc')).rejects.toThrow();
    await ctx.app.storage.remove(key);
    await ctx.app.storage.remove(old);
  });

  it('refuses a link whose signature, key or expiry was changed', async () => {
    const { key } = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const other = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const { path, expires, signature } = parts(await ctx.app.storage.signedUrl(key));
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const tampered = [
      `${path}?expires=${expires}&signature=${flipped}`,
      `/api/files/${other.key}?expires=${expires}&signature=${signature}`,
      `${path}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `${path}?expires=${expires}`,
      `${path}?signature=${signature}`,
      path,
      `${path}?expires=soon&signature=${signature}`,
    ];
    for (const url of tampered) {
      const response = await fetchLink(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({ message: FILE_LINK_INVALID });
    }
  });

  it('refuses an expired link', async () => {
    const { key } = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const response = await fetchLink(await ctx.app.storage.signedUrl(key, -1));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: FILE_LINK_INVALID });
  });

  it('refuses paths that try to leave the file store', async () => {
    for (const url of [
      '/api/files/../jwt-secret',
      '/api/files/%2e%2e%2fjwt-secret',
      '/api/files/profile/..%2f..%2fjwt-secret',
    ]) {
      const response = await fetchLink(`${url}?expires=9999999999&signature=x`);
      expect([403, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain('test-secret');
    }
  });

  it('answers 404 for a valid link to a removed file', async () => {
    const { key } = await ctx.app.storage.put(
      'profile',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const url = await ctx.app.storage.signedUrl(key);
    await ctx.app.storage.remove(key);
    const response = await fetchLink(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'This file no longer exists.' });
  });
});
