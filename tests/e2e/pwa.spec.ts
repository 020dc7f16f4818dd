import { expect, test } from '@playwright/test';
import { createAccount, signIn } from './support';

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
  // A fixed identity: the installed app stays the same app whatever start_url becomes.
  expect(manifest.id).toBe('/');

  // The install dialog's screenshots: one for phones, one for computers, real PNGs of the sizes declared.
  type Screenshot = { src: string; sizes: string; type: string; form_factor: string; label: string };
  const screenshots = manifest.screenshots as Screenshot[];
  expect(screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
  for (const shot of screenshots) {
    expect(shot.type).toBe('image/png');
    expect(shot.label.length).toBeGreaterThan(10);
    const image = await request.get(shot.src);
    expect(image.ok(), shot.src).toBe(true);
    const bytes = await image.body();
    expect(bytes.subarray(1, 4).toString('latin1'), shot.src).toBe('PNG');
    expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, shot.src).toBe(shot.sizes);
  }
  const narrow = screenshots.find((shot) => shot.form_factor === 'narrow');
  const [narrowWidth = 0, narrowHeight = 0] = (narrow?.sizes ?? '').split('x').map(Number);
  expect(narrowHeight).toBeGreaterThan(narrowWidth);

  // Long-press shortcuts to screens that exist (a client route answers the app, an unknown file a 404).
  type Shortcut = { name: string; url: string; icons: { src: string }[] };
  const shortcuts = manifest.shortcuts as Shortcut[];
  expect(shortcuts.map((shortcut) => shortcut.name)).toEqual(["Today's medicines", 'New appointment']);
  expect(shortcuts.map((shortcut) => shortcut.url)).toEqual(['/prescriptions', '/appointments?new=1']);
  for (const shortcut of shortcuts) {
    const page = await request.get(shortcut.url);
    expect(page.ok(), shortcut.url).toBe(true);
    expect(await page.text()).toContain('<div id="root">');
    for (const icon of shortcut.icons) expect((await request.get(icon.src)).ok()).toBe(true);
  }

  expect((await request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');
  expect((await request.get('/index.html')).headers()['cache-control']).toBe('no-cache');
});

test('after one visit the app opens offline', async ({ page, context, request }) => {
  await signIn(page, await createAccount(request, 'Patient', 'Olive Offline'));
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

test('the app is sent precompressed: brotli to a browser that takes it, gzip to one that does not', async ({
  request,
}) => {
  const html = await (await request.get('/login')).text();
  const asset = /\/assets\/index-[^"]+\.js/.exec(html)?.[0] ?? '';
  expect(asset).toBeTruthy();
  for (const [accepted, encoding] of [
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
  ] as const) {
    for (const url of [asset, '/login']) {
      const response = await request.get(url, { headers: { 'accept-encoding': accepted } });
      expect(response.headers()['content-encoding'], `${url} with ${accepted}`).toBe(encoding);
      expect(response.headers().vary?.toLowerCase()).toContain('accept-encoding');
    }
  }
});

test('hashed assets are cached long, client routes fall back to the app', async ({ request }) => {
  const html = await (await request.get('/some/client/route')).text();
  expect(html).toContain('<div id="root">');
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  expect((await request.get(asset ?? '')).headers()['cache-control']).toContain('immutable');
  expect((await request.get('/assets/missing-file.js')).status()).toBe(404);
});
