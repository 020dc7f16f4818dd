import { expect, test } from '@playwright/test';
import { createVerifiedUser, signInThroughUi } from './support';

test('the manifest makes the app installable', async ({ request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);
  const manifest = await response.json();
  expect(manifest).toMatchObject({
    name: 'Kincare',
    display: 'standalone',
    start_url: '/',
    theme_color: '#0f766e',
  });
  const sizes = manifest.icons.map(
    (icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`,
  );
  expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of manifest.icons) expect((await request.get(icon.src)).ok()).toBe(true);
  expect((await request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');
  expect((await request.get('/index.html')).headers()['cache-control']).toBe('no-cache');
});

test('after one visit the app opens offline', async ({ page, context, request }) => {
  const { email } = await createVerifiedUser(request, 'Patient', 'Olive Offline');
  await signInThroughUi(page, email);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload(); // the service worker now controls the page
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('greeting')).toContainText('Olive Offline');
  await page.goto('/appointments');
  await expect(page.getByRole('heading', { name: 'Appointments' })).toBeVisible();
  await context.setOffline(false);
});

test('hashed assets are cached long, client routes fall back to the app', async ({ request }) => {
  const html = await (await request.get('/some/client/route')).text();
  expect(html).toContain('<div id="root">');
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  expect((await request.get(asset ?? '')).headers()['cache-control']).toContain('immutable');
  expect((await request.get('/assets/missing-file.js')).status()).toBe(404);
});
