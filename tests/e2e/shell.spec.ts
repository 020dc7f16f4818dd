import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import {
  createVerifiedUser,
  serverAppointments,
  signInThroughUi,
  storedToken,
  waitForServiceWorker,
} from './support';

test('toasts appear bottom-center and close after 2000 ms', async ({ page, request }) => {
  const { email } = await createVerifiedUser(request, 'Patient');
  await signInThroughUi(page, email);
  const toast = page.getByText('Logged in successfully');
  const shownAt = Date.now();
  const box = await toast.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (box && viewport) {
    expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(20);
    expect(box.y).toBeGreaterThan(viewport.height * 0.75);
  }
  await expect(toast).toBeHidden({ timeout: 5000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1000);
});

test("a waiting new version offers 'A new version is available - Reload', and Reload switches to it", async ({
  page,
}) => {
  // A server of its own on a copy of the build, so that 'deploying' a new service worker touches no other test.
  const dir = mkdtempSync(join(tmpdir(), 'kincare-update-'));
  cpSync(join(import.meta.dirname, '..', '..', 'dist'), join(dir, 'dist'), { recursive: true });
  const config = loadConfig({
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'update-test-secret-long-enough-for-signing',
  });
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const app = await buildApp({ config, db: database.db, distDir: join(dir, 'dist') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const address = app.server.address();
    const base = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    await page.goto(`${base}/login`);
    await waitForServiceWorker(page);
    const workerFile = join(dir, 'dist', 'sw.js');
    writeFileSync(workerFile, `${readFileSync(workerFile, 'utf8')}\n// the next version\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByText('A new version is available -')).toBeVisible({ timeout: 15_000 });
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await expect
      .poll(() =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
      )
      .toBeNull();
    await expect(page.getByRole('tab', { name: 'Sign in' })).toBeVisible();
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the nightly periodicsync in the service worker pulls what changed elsewhere into the replica', async ({
  page,
  context,
  request,
}) => {
  const { email } = await createVerifiedUser(request, 'Patient', 'Nia Nightly');
  await signInThroughUi(page, email);
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  // Another device books an appointment; this page does not sync on its own meanwhile.
  const token = await storedToken(page);
  const profile = await (
    await request.get('/api/auth/profile', { headers: { Authorization: `Bearer ${token}` } })
  ).json();
  const created = await request.post('/api/appointments', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      id: crypto.randomUUID(),
      patient_id: profile.data.patient_id,
      appointment_title: 'Booked on the laptop',
      appointment_date: '2027-03-01T09:00:00Z',
    },
  });
  expect(created.status()).toBe(201);
  expect(await serverAppointments(page, request)).toHaveLength(1);

  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((registration) => !registration.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(page.url()).origin;
  await cdp.send('ServiceWorker.dispatchPeriodicSyncEvent', {
    origin,
    registrationId: await registrationId,
    tag: 'kincare-nightly',
  });
  await expect(page.getByText('Booked on the laptop')).toBeVisible({ timeout: 10_000 });
});
