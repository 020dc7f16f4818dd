import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { bearer, serverAppointments, waitForServiceWorker } from './support';

type ToastSeen = {
  text: string;
  shownAt: number;
  goneAt: number | null;
  box: { x: number; y: number; width: number; height: number } | null;
  viewport: { width: number; height: number };
};

test('toasts appear bottom-center and close after 2000 ms', async ({ page, patient }) => {
  // Where each toast shows and how long it stays, seen by the page itself as toasts come and go: from the
  // test, a busy machine's delay in answering counted too, and a toast could be gone before it was looked at.
  await page.addInitScript(() => {
    const toasts = new Map<Element, ToastSeen>();
    Object.assign(window, { toastsSeen: () => [...toasts.values()] });
    new MutationObserver(() => {
      const now = performance.now();
      for (const toast of document.querySelectorAll('[data-rht-toaster] [role="status"]')) {
        if (toasts.has(toast)) continue;
        const seen: ToastSeen = {
          text: toast.textContent ?? '',
          shownAt: now,
          goneAt: null,
          box: null,
          viewport: { width: innerWidth, height: innerHeight },
        };
        toasts.set(toast, seen);
        requestAnimationFrame(() => {
          const { x, y, width, height } = toast.getBoundingClientRect();
          seen.box = { x, y, width, height };
        });
      }
      for (const [toast, seen] of toasts) if (seen.goneAt === null && !toast.isConnected) seen.goneAt = now;
    }).observe(document, { childList: true, subtree: true });
  });
  // The sign-in form's toast is the one measured.
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(patient.email);
  await form.getByLabel('Password').fill(patient.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const signedIn = async () =>
    (await page.evaluate(() => (window as unknown as { toastsSeen: () => ToastSeen[] }).toastsSeen())).find(
      ({ text }) => text.includes('Logged in successfully'),
    );
  await expect.poll(async () => (await signedIn())?.goneAt ?? null, { timeout: 10_000 }).not.toBeNull();
  const seen = await signedIn();
  const box = seen?.box;
  expect(box, 'the toast was drawn').toBeTruthy();
  if (seen && box) {
    expect(Math.abs(box.x + box.width / 2 - seen.viewport.width / 2)).toBeLessThan(20);
    expect(box.y).toBeGreaterThan(seen.viewport.height * 0.75);
    expect((seen.goneAt ?? 0) - seen.shownAt).toBeGreaterThan(1000);
  }
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
  patientPage: page,
  patient,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  await expect(page.getByText('No upcoming appointments.')).toBeVisible();
  // Another device books an appointment; this page does not sync on its own meanwhile.
  const created = await request.post('/api/appointments', {
    headers: bearer(patient.token),
    data: {
      id: crypto.randomUUID(),
      patient_id: patient.patientId,
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
