import { existsSync } from 'node:fs';
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
    const { key } = await ctx.app.storage.put('lab', PDF, 'application/pdf');
    expect(key).toMatch(/^lab\/[0-9a-f]{32}\.pdf$/);
    expect(existsSync(join(ctx.dataDir, 'files', key))).toBe(true);
    const read = await ctx.app.storage.read(key);
    expect(read?.contentType).toBe('application/pdf');
    expect(read?.bytes.equals(PDF)).toBe(true);
    await ctx.app.storage.remove(key);
    expect(await ctx.app.storage.read(key)).toBeNull();
    await expect(ctx.app.storage.remove(key)).resolves.toBeUndefined(); // removing twice is fine
  });

  it('gives every file a new key', async () => {
    const first = await ctx.app.storage.put('prescription', TINY_PNG, 'image/png');
    const second = await ctx.app.storage.put('prescription', TINY_PNG, 'image/png');
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
    const { key } = await ctx.app.storage.put('profile', TINY_PNG, 'image/png');
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
    const { key } = await ctx.app.storage.put('lab', PDF, 'application/pdf');
    const response = await fetchLink(await ctx.app.storage.signedUrl(key, 60));
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="kincare-lab.pdf"');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.rawPayload.equals(PDF)).toBe(true);
  });

  it('lists the stored files of a kind with when they were written', async () => {
    const { key } = await ctx.app.storage.put('appointment', PDF, 'application/pdf');
    const listed = await ctx.app.storage.list('appointment');
    const entry = listed.find((file) => file.key === key);
    expect(entry?.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await ctx.app.storage.remove(key);
    expect((await ctx.app.storage.list('appointment')).map((file) => file.key)).not.toContain(key);
  });

  it('refuses a link whose signature, key or expiry was changed', async () => {
    const { key } = await ctx.app.storage.put('profile', TINY_PNG, 'image/png');
    const other = await ctx.app.storage.put('profile', TINY_PNG, 'image/png');
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
    const { key } = await ctx.app.storage.put('profile', TINY_PNG, 'image/png');
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
    const { key } = await ctx.app.storage.put('profile', TINY_PNG, 'image/png');
    const url = await ctx.app.storage.signedUrl(key);
    await ctx.app.storage.remove(key);
    const response = await fetchLink(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'This file no longer exists.' });
  });
});
