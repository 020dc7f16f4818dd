import { rmSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HSTS, PERMISSIONS_POLICY } from '../../src/server/plugins/headers';
import { fakePwaDir, startTestApp, type TestContext } from './helpers';
import { TINY_PNG } from '../fixtures/images';

// Headers of every answer, on the real app serving a (minimal) built PWA beside the API, as in production:
// no-store on every API answer, a Permissions-Policy, HSTS only over HTTPS, JSON 404s under /api whatever
// the method, and stored files served so that they can never act as a page of the site.

let ctx: TestContext;
let behindProxy: TestContext;
let pwaDir: string;
beforeAll(async () => {
  pwaDir = fakePwaDir();
  ctx = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '1' }, { distDir: pwaDir });
  behindProxy = await startTestApp({ TRUST_PROXY: '127.0.0.1' }, { distDir: pwaDir });
});
afterAll(async () => {
  await ctx.close();
  await behindProxy.close();
  rmSync(pwaDir, { recursive: true, force: true });
});

const send = (options: InjectOptions, on: TestContext = ctx) => on.app.inject(options);

describe('Cache-Control on API answers', () => {
  it('is no-store on every kind of API answer: success, refusal, validation error, 404, 413 and 429', async () => {
    const login = {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'cache@example.com', password: 'x' },
    } as const;
    await send(login);
    const answers = {
      ok: await send({ method: 'GET', url: '/api/health' }),
      unauthorized: await send({ method: 'GET', url: '/api/auth/profile' }),
      invalid: await send({ method: 'POST', url: '/api/auth/login', payload: { email: 'not-an-email' } }),
      notFound: await send({ method: 'GET', url: '/api/nothing-here' }),
      notFoundPost: await send({ method: 'POST', url: '/api/nothing-here', payload: {} }),
      tooLarge: await send({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
      }),
      tooMany: await send(login),
      docs: await send({ method: 'GET', url: '/api/docs' }),
    };
    expect(answers.ok.statusCode).toBe(200);
    expect(answers.unauthorized.statusCode).toBe(401);
    expect(answers.invalid.statusCode).toBe(400);
    expect(answers.notFound.statusCode).toBe(404);
    expect(answers.tooLarge.statusCode).toBe(413);
    expect(answers.tooMany.statusCode).toBe(429);
    for (const [name, response] of Object.entries(answers)) {
      expect(response.headers['cache-control'], name).toBe('no-store');
    }
  });

  it("leaves the PWA's own caching alone", async () => {
    const page = await send({ method: 'GET', url: '/appointments' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});

describe('Permissions-Policy', () => {
  it('allows geolocation and the microphone to the site itself and everything else to nobody, on the app and the API', async () => {
    for (const url of ['/', '/api/health', '/api/nothing']) {
      const policy = (await send({ method: 'GET', url })).headers['permissions-policy'];
      expect(policy, url).toBe(PERMISSIONS_POLICY);
    }
    const features = Object.fromEntries(
      PERMISSIONS_POLICY.split(', ').map((entry) => entry.split('=') as [string, string]),
    );
    expect(features.geolocation).toBe('(self)');
    expect(features.microphone).toBe('(self)');
    for (const feature of ['camera', 'payment', 'usb', 'display-capture'])
      expect(features[feature]).toBe('()');
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP', async () => {
    const response = await send({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect((await send({ method: 'GET', url: '/' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over HTTPS, and only then', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const viaProxy = await send({ method: 'GET', url: '/api/health', headers: https }, behindProxy);
    expect(viaProxy.headers['strict-transport-security']).toBe(HSTS);
    const page = await send({ method: 'GET', url: '/', headers: https }, behindProxy);
    expect(page.headers['strict-transport-security']).toBe(HSTS);
    const plain = await send(
      { method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } },
      behindProxy,
    );
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY the header is anyone's to send, so it is not believed.
    const untrusted = await send({ method: 'GET', url: '/api/health', headers: https });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('unknown API paths', () => {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
  const paths = [
    '/api',
    '/api/nothing',
    '/api/sync/nothing',
    '/api/nothing/deeper/still',
    '/api/app.js',
    '/api/?x=1',
  ];

  it.each(methods)('answer %s with a JSON 404, never the app', async (method) => {
    for (const url of paths) {
      const response = await send({
        method,
        url,
        ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : { payload: {} }),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type'], `${method} ${url}`).toContain('application/json');
      if (method !== 'HEAD') expect(response.json(), `${method} ${url}`).toEqual({ message: 'Not found' });
      expect(response.body).not.toContain('<title>Kincare');
    }
  });

  it('still gives client routes the app', async () => {
    const response = await send({ method: 'GET', url: '/apiary' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Kincare');
  });
});

describe('stored files', () => {
  const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

  it('serves images inline and everything else as a download, both under a sandboxing CSP', async () => {
    const image = await ctx.app.storage.put(
      'appointment',
      TINY_PNG,
      'image/png',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const pdf = await ctx.app.storage.put(
      'lab',
      PDF,
      'application/pdf',
      '0f8e2b4c-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
    );
    const shownImage = await send({ method: 'GET', url: await ctx.app.storage.signedUrl(image.key) });
    const shownPdf = await send({ method: 'GET', url: await ctx.app.storage.signedUrl(pdf.key) });
    expect(shownImage.headers['content-disposition']).toBe('inline');
    expect(shownPdf.headers['content-disposition']).toMatch(/^attachment; filename="kincare-lab\.pdf"$/);
    for (const response of [shownImage, shownPdf]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });
});
